#!/usr/bin/env node
// Fresh-machine entry point: runs on whatever Node the machine has (20 or later) with npm.
// Makes sure pnpm 10 is there, installs the workspace (which brings the pinned Node 24),
// then hands over to `pnpm run <script>`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installFingerprint, installIsFresh, writeStamp } from './lib/up-to-date.mjs';

const PNPM_VERSION = '10.34.9';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const script = process.argv[2];
if (!script) {
  process.stderr.write('usage: node scripts/bootstrap.mjs <pnpm script>\n');
  process.exit(2);
}

// The Node this script runs on is the machine's own (20 on a stock machine): the SDK's tests run on it too.
const env = {
  ...process.env,
  CATALOG_MACHINE_NODE: process.env.CATALOG_MACHINE_NODE ?? process.execPath,
  TURBO_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
  REDOCLY_TELEMETRY: 'off',
};
const run = (command, args) => spawnSync(command, args, { stdio: 'inherit', env });
const pnpmVersion = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
if (pnpmVersion.status !== 0 || !pnpmVersion.stdout.startsWith('10.')) {
  process.stderr.write(`bootstrap: installing pnpm ${PNPM_VERSION} with npm\n`);
  const installed = run('npm', ['install', '--global', `pnpm@${PNPM_VERSION}`]);
  if (installed.status !== 0) {
    process.stderr.write(
      `bootstrap: could not install pnpm; run "npm install -g pnpm@${PNPM_VERSION}" yourself\n`,
    );
    process.exit(1);
  }
}
// Debian packages the scripts run but cannot download themselves, installed in one apt run when they
// are missing and this machine lets us (root with apt): the console's browser suite drives Debian's
// Chromium (Playwright cannot download its own browser here), and the cluster (its tests and
// `pnpm start:cluster`) runs Debian's nginx, and the console suite pastes the curl snippet a new
// client's panel shows into a shell, as an administrator would. The `nginx` package: on Debian 12
// nginx-light is that same package plus an echo module the configuration does not use.
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const onPath = (name, extra = []) =>
  [...(process.env.PATH ?? '').split(delimiter), ...extra].some((dir) => dir && existsSync(join(dir, name)));
const nginxInstalled = () =>
  process.env.NGINX_PATH ? existsSync(process.env.NGINX_PATH) : onPath('nginx', ['/usr/sbin']);
const missing = [];
if (script === 'test:all' && !existsSync(chromium)) {
  missing.push({
    packages: ['chromium', 'fonts-liberation'],
    need: `the console tests need Chromium at ${chromium}: install Debian's "chromium" package (or set CHROMIUM_PATH)`,
  });
}
if (script === 'test:all' && !onPath('curl')) {
  missing.push({ packages: ['curl'], need: `the console tests run curl: install Debian's "curl" package` });
}
if ((script === 'test:all' || script === 'start:cluster:services') && !nginxInstalled()) {
  missing.push({
    packages: ['nginx'],
    need: `the cluster needs nginx: install Debian's "nginx" package (or set NGINX_PATH)`,
  });
}
if (missing.length > 0) {
  const packages = missing.flatMap((entry) => entry.packages);
  const canApt = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canApt) {
    for (const entry of missing) process.stderr.write(`bootstrap: ${entry.need}\n`);
    process.exit(1);
  }
  process.stderr.write(`bootstrap: installing Debian's ${packages.join(', ')}\n`);
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => spawnSync('apt-get', args, { stdio: 'inherit', env: aptEnv });
  if (apt(['update']).status !== 0 || apt(['install', '-y', ...packages]).status !== 0) {
    process.stderr.write(
      `bootstrap: could not install them; run "apt-get install ${packages.join(' ')}" yourself\n`,
    );
    process.exit(1);
  }
}
// pnpm's install takes tens of seconds even when it has nothing to do: skipped when the lockfile it
// last installed is the current one and no manifest changed since (scripts/lib/up-to-date.mjs).
const installStamp = join(root, 'node_modules', '.catalog-install.json');
if (!installIsFresh(root, installStamp)) {
  const installs = installFingerprint(root);
  const install = run('pnpm', ['install', '--frozen-lockfile']);
  if (install.status !== 0) process.exit(install.status ?? 1);
  writeStamp(installStamp, installs);
}
// Ctrl-C reaches every process of the terminal's group, this one too: it waits for the command to
// stop (`pnpm start` drains its servers first) instead of dying and handing the terminal back early.
process.on('SIGINT', () => {});
const result = run('pnpm', ['run', script]);
process.exit(result.status ?? 1);
