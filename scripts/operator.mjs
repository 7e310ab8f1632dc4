#!/usr/bin/env node
// Runs an operator command (`pnpm catalog …`, `pnpm admin …`) from the built operator CLI.
// The build runs quietly: its output (turbo's banner included) is shown only when it fails, so that
// the command prints only what it means to (`pnpm --silent admin token` prints the token alone).
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
  { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 },
);
if (build.status !== 0) {
  if (build.stdout) process.stderr.write(build.stdout);
  if (build.stderr) process.stderr.write(build.stderr);
  if (build.error) process.stderr.write(`${build.error.message}\n`);
  process.stderr.write('operator CLI: the build failed, see above\n');
  process.exit(build.status ?? 1);
}
process.argv = [process.argv[0], command, ...args];
await import(pathToFileURL(join(root, 'apps/operator-cli/dist', `${command}-cli.js`)).href);
