// nginx run in the foreground on a rendered configuration (nginx-config.mts): started, known to be
// listening, stopped. Shared by `pnpm start:cluster` and the cluster tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';

/**
 * The nginx to run: `configured` (NGINX_PATH) when given, else the first on `path`, else Debian's
 * /usr/sbin/nginx (outside an ordinary user's PATH); undefined when there is none.
 */
export function findNginx(configured: string | undefined, path: string | undefined): string | undefined {
  if (configured !== undefined && configured !== '') return existsSync(configured) ? configured : undefined;
  const dirs = [...(path ?? '').split(delimiter).filter(Boolean), '/usr/sbin'];
  return dirs.map((dir) => join(dir, 'nginx')).find((candidate) => existsSync(candidate));
}

export interface NginxProcess {
  readonly child: ChildProcess;
  /** What nginx wrote to stdout and stderr so far (its error log goes to stderr). */
  output(): string;
  /** Fast shutdown (SIGTERM); resolves once nginx has exited. */
  stop(): Promise<void>;
}

function accepts(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export class NginxStartError extends Error {
  override readonly name = 'NginxStartError';
}

/**
 * Starts nginx on `configFile` with `runDir` as its prefix and resolves once every port in `ports`
 * accepts connections on `host`; rejects with nginx's own output when it exits first or the ports do
 * not open within `timeoutMs`.
 */
export async function startNginx(options: {
  readonly executable: string;
  readonly configFile: string;
  readonly runDir: string;
  readonly host: string;
  readonly ports: readonly number[];
  readonly timeoutMs?: number;
  /** Its own process group: a Ctrl-C at the terminal reaches the caller alone, which stops nginx in order. */
  readonly detached?: boolean;
}): Promise<NginxProcess> {
  const child = spawn(options.executable, ['-p', options.runDir, '-c', options.configFile, '-e', 'stderr'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = once(child, 'exit');
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new NginxStartError(`nginx exited before it listened:\n${output}`);
    const listening = await Promise.all(options.ports.map((port) => accepts(port, options.host)));
    if (listening.every(Boolean)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new NginxStartError(`nginx did not listen on ${options.ports.join(', ')} in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
