#!/usr/bin/env node
// `pnpm start`: the token server and the catalog API from their build output, in the foreground,
// on one environment and, from the repository's directory, one DATA_DIR (./data, where the README and
// the operator commands look). It replaces `turbo run start`, which ran each server in its own package's directory
// and neither waited for them to drain nor made sure both had stopped when it exited.
//
// Each server runs in a process group of its own: a Ctrl-C, which the terminal sends to every process
// of its group, reaches a server once, through this script (a second signal stops a server at once).
// SIGINT or SIGTERM here is passed on, and each server drains (/ready 503 for SHUTDOWN_DRAIN_MS, the
// requests in flight answered) and exits; this script exits once both have. So it does when one server
// ends by itself (the other is stopped), or when the command that started it is gone.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The flags and allocator setting of each package's own `start` script.
const servers = [
  {
    name: 'auth-server',
    args: ['--enable-source-maps', join(root, 'apps/auth-server/dist/main.js')],
    env: {},
  },
  {
    name: 'catalog-api',
    args: ['--max-semi-space-size=8', '--enable-source-maps', join(root, 'apps/catalog-api/dist/main.js')],
    env: { MALLOC_ARENA_MAX: '2' },
  },
];

const say = (line) => process.stderr.write(`start: ${line}\n`);
const running = new Map();
let stopSignal;
let exitCode = 0;

const stop = (signal) => {
  if (stopSignal === undefined)
    say(`${signal}: stopping ${[...running.keys()].join(' and ')} (they drain first)`);
  else say(`${signal} again: the servers stop at once`);
  stopSignal = signal;
  for (const child of running.values()) child.kill(signal);
};

process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
say(`starting ${servers.map((server) => server.name).join(' and ')} (this process: pid ${process.pid})`);
for (const server of servers) {
  const child = spawn(process.execPath, server.args, {
    cwd: root,
    env: { ...process.env, ...server.env },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  running.set(server.name, child);
  say(`${server.name} started (pid ${child.pid})`);
  child.once('exit', (code, signal) => {
    running.delete(server.name);
    const how = code === null ? `signal ${signal}` : `code ${code}`;
    say(`${server.name} (pid ${child.pid}) exited with ${how}`);
    if (code !== 0) exitCode = code ?? 1;
    if (stopSignal === undefined && running.size > 0) {
      exitCode ||= 1;
      stop('SIGTERM');
    }
    if (running.size === 0) process.exit(exitCode);
  });
}
// `pnpm start` is several processes deep, and pnpm's answer to a SIGTERM is to kill only its shell
// and exit: this script would stay, with both servers, after the command is gone. The leader of this
// process group is that command (or the shell running it); once it is gone, stop as on SIGTERM.
// Linux tells the group in /proc; elsewhere only the signals stop the servers.
const groupLeader = (() => {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const [, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(group);
  } catch {
    return undefined;
  }
})();
if (groupLeader !== undefined && groupLeader !== process.pid) {
  setInterval(() => {
    if (stopSignal !== undefined) return;
    try {
      process.kill(groupLeader, 0);
    } catch (error) {
      // EPERM: there, but another user's.
      if (error.code !== 'ESRCH') return;
      say(`the command that started this one (pid ${groupLeader}) is gone`);
      stop('SIGTERM');
    }
  }, 1000).unref();
}
