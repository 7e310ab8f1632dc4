import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { SERVICE_START_MS } from '@catalog/vitest-config/start-timeouts';

export interface SpawnedService {
  readonly child: ChildProcess;
  readonly port: number;
  readonly url: string;
  /** Where Prometheus would scrape it (a free loopback port unless the test set one); absent when metrics are off. */
  readonly metricsUrl: string | undefined;
  /** Every line the process wrote to stdout and stderr so far. */
  readonly output: () => string;
  /** Sends SIGTERM and resolves with the exit code. */
  readonly stop: () => Promise<number | null>;
}

export interface SpawnOptions {
  /** Path of the entry module (a .ts source runs through Node's type stripping). */
  readonly entry: string;
  readonly env: Record<string, string>;
  /** The longest to wait for the "listening" line; SERVICE_START_MS, sized for a slow machine, by default. */
  readonly timeoutMs?: number;
  /**
   * Resolve workspace packages to their TypeScript sources (the default, for tests of one package).
   * False runs the built output exactly as `pnpm start` does.
   */
  readonly sourceConditions?: boolean;
  /** Command-line arguments after the entry (for command-line tools). */
  readonly args?: readonly string[];
  /** Node.js options before the entry (a bench runs the API with the flags `pnpm start` gives it). */
  readonly nodeArgs?: readonly string[];
  /** Written to the child's stdin, which is then closed; stdin is ignored when absent. */
  readonly stdin?: string;
}

/** Runs a real entry point (a server or a command-line tool) in a child process with the given environment. */
export function runEntry(options: SpawnOptions): ChildProcess {
  const conditions = options.sourceConditions === false ? [] : ['--conditions=source'];
  const child = spawn(
    process.execPath,
    [
      ...conditions,
      ...(options.nodeArgs ?? []),
      '--enable-source-maps',
      options.entry,
      ...(options.args ?? []),
    ],
    {
      env: {
        PATH: process.env.PATH ?? '',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        // Suites run side by side: every metrics listener takes a free port, and a test's process
        // stops at once unless the test is about draining.
        METRICS_PORT: '0',
        AUTH_METRICS_PORT: '0',
        SHUTDOWN_DRAIN_MS: '0',
        ...options.env,
      },
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    },
  );
  if (options.stdin !== undefined) child.stdin?.end(options.stdin);
  return child;
}

export interface ExitResult {
  readonly code: number | null;
  /** stdout and stderr interleaved as they arrived. */
  readonly output: string;
  readonly stdout: string;
  readonly stderr: string;
}

/** Collects a child's output and resolves with its exit code. */
export async function runToExit(options: SpawnOptions): Promise<ExitResult> {
  const child = runEntry(options);
  let output = '';
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stderr += chunk.toString();
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output, stdout, stderr };
}

/** Starts a server process and resolves once it logged that it listens. */
export async function spawnService(options: SpawnOptions): Promise<SpawnedService> {
  const child = runEntry(options);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const listening = new Promise<{ port: number; url: string; metricsUrl?: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running: nobody holds it to stop it once this rejects.
      child.kill('SIGKILL');
      reject(new Error(`no "listening" line within the time limit:\n${output}`));
    }, options.timeoutMs ?? SERVICE_START_MS);
    // Scan only the new lines, and only until the announcement, when the scan stops listening: busy
    // servers log a lot afterwards, and searching the whole output for its last line at every chunk
    // flattens and reads it all again (a bench's client spent tens of milliseconds a request on it
    // once the API had logged some megabytes).
    let scanned = 0;
    const scan = () => {
      const end = output.lastIndexOf('\n');
      if (end < scanned) return;
      const lines = output.slice(scanned, end).split('\n');
      scanned = end + 1;
      const line = lines.find((candidate) => candidate.includes('"msg":"listening"'));
      if (line === undefined) return;
      child.stdout?.off('data', scan);
      child.stderr?.off('data', scan);
      clearTimeout(timer);
      const entry = JSON.parse(line) as { port: number; url: string; metricsUrl?: string };
      resolve(entry);
    };
    child.stdout?.on('data', scan);
    child.stderr?.on('data', scan);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${output}`));
    });
  });
  const { port, url, metricsUrl } = await listening;
  return {
    child,
    port,
    url,
    metricsUrl,
    output: () => output,
    stop: async () => {
      // A child killed by a signal has no exit code but has exited all the same.
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit') as Promise<[number | null]>;
      child.kill('SIGTERM');
      return (await exited)[0];
    },
  };
}

export interface RawReply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One request on a fresh connection (no keep-alive pool), trusting `ca` when given. */
export function rawRequest(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    ca?: string;
    body?: string;
    /** The address to connect from (any 127.x.y.z on loopback): a caller other than the proxy. */
    localAddress?: string;
    /** The TLS server name: Node takes it from a Host header, which a forged one must not change. */
    servername?: string;
  } = {},
): Promise<RawReply> {
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        agent: false,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        ...(options.ca ? { ca: options.ca } : {}),
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
        ...(options.servername ? { servername: options.servername } : {}),
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
