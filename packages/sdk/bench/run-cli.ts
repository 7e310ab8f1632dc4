// The bench's catalog-sync process: the CLI exactly as bin.ts runs it, then one more stdout line with
// this process's peak RSS (getrusage: every thread included), so the bench needs no external tool.
import { runCli } from '../src/cli/main.ts';

const code = await runCli({ argv: process.argv.slice(2) });
process.stdout.write(`${JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
process.exitCode = code;
