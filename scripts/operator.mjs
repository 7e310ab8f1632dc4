#!/usr/bin/env node
// Runs an operator command (`pnpm catalog …`, `pnpm admin …`) from the built operator CLI.
// The build runs quietly: its output (turbo's banner included) is shown only when it fails, so that
// the command prints only what it means to (`pnpm --silent admin token` prints the token alone).
// It runs only when the CLI's inputs changed since the last build this script saw succeed: turbo's
// own start-up costs seconds even when its cache has everything.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildInputs, fingerprint, isFresh, writeStamp } from './lib/up-to-date.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [command, ...args] = process.argv.slice(2);
const entry = join(root, 'apps/operator-cli/dist', `${command}-cli.js`);
// In dist, so that removing the build output removes the stamp with it.
const stamp = join(root, 'apps/operator-cli/dist/.build-inputs.json');
// Taken before the build: a file edited while it runs leaves the next command a build to do.
const inputs = fingerprint(root, buildInputs(root, '@catalog/operator-cli'));
if (!existsSync(entry) || !isFresh(stamp, inputs)) build();
process.argv = [process.argv[0], command, ...args];
await import(pathToFileURL(entry).href);

function build() {
  const result = spawnSync(
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
  if (result.status !== 0) {
    if (result.stdout) process.stderr.write(result.stdout);
    if (result.stderr) process.stderr.write(result.stderr);
    if (result.error) process.stderr.write(`${result.error.message}\n`);
    process.stderr.write('operator CLI: the build failed, see above\n');
    process.exit(result.status ?? 1);
  }
  writeStamp(stamp, inputs);
}
