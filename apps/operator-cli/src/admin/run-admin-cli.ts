import { CommanderError } from 'commander';
import type { Output } from '../output.ts';
import { UsageError } from '../usage-error.ts';
import { adminProgram } from './admin-program.ts';

/** Runs `pnpm admin …` and resolves to the exit code: 0 done, 1 the operation failed, 2 usage or configuration. */
export async function runAdminCli(argv: string[], output: Output): Promise<number> {
  try {
    await adminProgram(output).parseAsync(argv, { from: 'node' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : 2;
    }
    if (error instanceof UsageError) {
      output.err(`admin: ${error.message}`);
      return 2;
    }
    output.err(`admin: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
