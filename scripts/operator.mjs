#!/usr/bin/env node
// Runs an operator command (`pnpm catalog …`, `pnpm admin …`) from the built operator CLI.
// The build output goes to stderr so that stdout carries only what the command prints
// (`pnpm --silent admin token` must print the token alone).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [command, ...args] = process.argv.slice(2);
const build = spawnSync(
  'pnpm',
  [
    'exec',
    'turbo',
    'run',
    'build',
    '--filter=@catalog/operator-cli',
    '--output-logs=errors-only',
    '--log-prefix=none',
  ],
  { cwd: root, stdio: ['ignore', process.stderr, process.stderr] },
);
if (build.status !== 0) {
  process.stderr.write('operator CLI: the build failed, see above\n');
  process.exit(build.status ?? 1);
}
process.argv = [process.argv[0], command, ...args];
await import(pathToFileURL(join(root, 'apps/operator-cli/dist', `${command}-cli.js`)).href);
