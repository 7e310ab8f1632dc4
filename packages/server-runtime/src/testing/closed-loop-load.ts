import { Agent, request } from 'node:https';

export interface LoadRequest {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

export interface LoadResult {
  readonly concurrency: number;
  readonly seconds: number;
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly latencyMs: { readonly p50: number; readonly p95: number; readonly p99: number };
  /** Responses whose status was not the expected one. */
  readonly unexpected: number;
}

/**
 * A closed-loop HTTPS load: `concurrency` callers on keep-alive connections, each sending its next
 * request when the previous one answered, for a warm-up and then a measured window. Loopback only;
 * bounded in time.
 */
export async function closedLoopLoad(options: {
  readonly baseUrl: string;
  readonly ca: string;
  readonly concurrency: number;
  readonly warmupMs: number;
  readonly measureMs: number;
  /** The same request every time, or the next request of a mix (asked once per request sent). */
  readonly request: LoadRequest | (() => LoadRequest);
  readonly expectStatus?: number;
  /** Told of every measured response (not the warm-up's): which request, its status and latency. */
  readonly onResponse?: (request: LoadRequest, status: number, latencyMs: number) => void;
}): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency, ca: options.ca });
  const nextRequest =
    typeof options.request === 'function' ? options.request : () => options.request as LoadRequest;
  const expected = options.expectStatus ?? 200;
  let unexpected = 0;
  let measuring = false;

  const once = () =>
    new Promise<number>((resolve, reject) => {
      const sent = nextRequest();
      const started = performance.now();
      const req = request(
        `${options.baseUrl}${sent.path}`,
        { method: sent.method ?? 'GET', agent, headers: sent.headers ?? {} },
        (res) => {
          res.resume();
          res.on('end', () => {
            const latency = performance.now() - started;
            if (res.statusCode !== expected) unexpected += 1;
            if (measuring) options.onResponse?.(sent, res.statusCode ?? 0, latency);
            resolve(latency);
          });
        },
      );
      req.on('error', reject);
      req.end(sent.body);
    });

  const run = async (durationMs: number) => {
    const latencies: number[] = [];
    const started = performance.now();
    const deadline = started + durationMs;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (performance.now() < deadline) latencies.push(await once());
      }),
    );
    return { latencies, seconds: (performance.now() - started) / 1000 };
  };

  try {
    await run(options.warmupMs);
    unexpected = 0;
    measuring = true;
    const { latencies, seconds } = await run(options.measureMs);
    latencies.sort((a, b) => a - b);
    const at = (q: number) =>
      Number((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0).toFixed(1));
    return {
      concurrency: options.concurrency,
      seconds: Number(seconds.toFixed(1)),
      requests: latencies.length,
      requestsPerSecond: Math.round(latencies.length / seconds),
      latencyMs: { p50: at(0.5), p95: at(0.95), p99: at(0.99) },
      unexpected,
    };
  } finally {
    agent.destroy();
  }
}
