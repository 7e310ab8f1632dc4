import { Command, InvalidArgumentError } from 'commander';
import { runCopy } from './commands/copy.ts';
import { runImport } from './commands/import.ts';
import { runMigrate } from './commands/migrate.ts';
import { runSeed } from './commands/seed.ts';
import { resolveStorage } from './config/storage.ts';
import { commanderWriters, type Output } from './output.ts';

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
}

const DATA_DIR_HELP =
  'data directory (default: $DATA_DIR or ./data); DATABASE_URL=postgres://… works on PostgreSQL instead';

/** `pnpm catalog …`. Each action resolves to the process exit code. */
export function catalogProgram(output: Output, exit: (code: number) => void): Command {
  const program = new Command('catalog').description('Operate the product catalogue database');
  // Set before the subcommands are added: they copy these settings when created.
  program.exitOverride();
  program.configureOutput(commanderWriters(output));
  program
    .command('migrate')
    .description('apply pending schema migrations')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (options: { dataDir?: string }) => {
      await runMigrate(resolveStorage(options.dataDir), output);
      exit(0);
    });
  program
    .command('seed')
    .description('write a deterministic generated catalogue (same seed, same products)')
    .requiredOption('--products <n>', 'number of products', positiveInteger)
    .option('--seed <seed>', 'generator seed', 'demo')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (options: { products: number; seed: string; dataDir?: string }) => {
      await runSeed(
        { location: resolveStorage(options.dataDir), products: options.products, seed: options.seed },
        output,
      );
      exit(0);
    });
  program
    .command('import')
    .description('import admin-model products from NDJSON, validated, all or nothing per batch')
    .argument('<file>', 'NDJSON file, one product per line')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action(async (file: string, options: { dataDir?: string }) => {
      exit((await runImport(file, resolveStorage(options.dataDir), output)) ? 0 : 1);
    });
  program
    .command('copy')
    .description(
      'copy the whole catalogue of an embedded deployment into an empty PostgreSQL database, in one transaction, verified',
    )
    .requiredOption('--from <source>', 'sqlite:PATH, a catalog.sqlite file or the data directory holding it')
    .option('--to <url>', 'the target, postgres://user:password@host:port/database (default: $DATABASE_URL)')
    .action(async (options: { from: string; to?: string }) => {
      exit((await runCopy({ from: options.from, to: options.to }, output)) ? 0 : 1);
    });
  return program;
}
