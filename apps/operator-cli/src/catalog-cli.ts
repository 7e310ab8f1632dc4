// Entry point of `pnpm catalog …` (scripts/operator.mjs imports the built file).
// Exit codes: 0 done, 1 the operation failed, 2 wrong usage or configuration.
import { CommanderError } from 'commander';
import { catalogProgram } from './catalog-program.ts';
import { processOutput } from './output.ts';
import { UsageError } from './usage-error.ts';

async function main(argv: string[]): Promise<number> {
  let code = 0;
  const program = catalogProgram(processOutput, (exitCode) => {
    code = exitCode;
  });
  try {
    await program.parseAsync(argv, { from: 'node' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : 2;
    }
    if (error instanceof UsageError) {
      processOutput.err(`catalog: ${error.message}`);
      return 2;
    }
    processOutput.err(`catalog: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

process.exitCode = await main(process.argv);
