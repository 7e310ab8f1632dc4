// One server instance of `pnpm start:cluster`: the built entry point run as `pnpm start` runs it, its
// log lines passed to the terminal under the instance's name, its port read from its `listening` line.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export interface InstanceProcess {
  readonly name: string;
  readonly child: ChildProcess;
  readonly port: number;
  /** Resolves with the exit code (or the signal) once the process has exited. */
  readonly exited: Promise<string>;
}

export class InstanceStartError extends Error {
  override readonly name = 'InstanceStartError';
}

/**
 * Starts `entry` with Node and `env` (over this process's own) in a process group of its own, so a
 * Ctrl-C reaches the script alone, which stops the instances in order; resolves once it listens.
 */
export function startInstance(options: {
  readonly name: string;
  readonly entry: string;
  readonly env: Record<string, string>;
  readonly write: (line: string) => void;
  readonly timeoutMs: number;
  /** Told of the process as soon as it runs: a stop may come before it listens. */
  readonly onSpawn?: (child: ChildProcess) => void;
}): Promise<InstanceProcess> {
  // The flags and allocator setting `pnpm start` gives the catalog API (its package.json), for every instance.
  const child = spawn(process.execPath, ['--max-semi-space-size=8', '--enable-source-maps', options.entry], {
    env: { ...process.env, MALLOC_ARENA_MAX: '2', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  options.onSpawn?.(child);
  const exited = once(child, 'exit').then(([code, signal]) =>
    code === null ? String(signal) : String(code),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new InstanceStartError(`${options.name} did not listen within ${options.timeoutMs / 1000} s`));
    }, options.timeoutMs);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(
        new InstanceStartError(`${options.name} exited (${code}) before it listened: see its lines above`),
      );
    });
    for (const stream of [child.stdout, child.stderr]) {
      if (stream === null) continue;
      createInterface({ input: stream }).on('line', (line) => {
        options.write(`[${options.name}] ${line}`);
        if (!line.includes('"msg":"listening"')) return;
        clearTimeout(timer);
        const { port } = JSON.parse(line) as { port: number };
        resolve({ name: options.name, child, port, exited });
      });
    }
  });
}
