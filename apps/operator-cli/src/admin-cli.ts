// Entry point of `pnpm admin …` (scripts/operator.mjs imports the built file).
// Exit codes: 0 done, 1 the operation failed, 2 wrong usage or configuration.
import { runAdminCli } from './admin/run-admin-cli.ts';
import { processOutput } from './output.ts';

process.exitCode = await runAdminCli(process.argv, processOutput);
