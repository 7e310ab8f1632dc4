// Callers of a cluster: through nginx from loopback addresses of their own (127.0.x.y, every one of
// them this machine), so that nginx, and so the per-IP limit behind it, sees each as another client;
// or to one instance itself, past nginx, as nginx speaks to it.
import { Agent, type Dispatcher, request } from 'undici';
import type { ClusterInstance } from './cluster.ts';

export interface Sample {
  readonly sentAt: number;
  readonly doneAt: number;
  readonly status: number;
  /** Retry-After in seconds, when sent. */
  readonly retryAfter: number | undefined;
  readonly body: string;
}

/** Keep-alive pools to nginx, one per source address. */
export class SourceAddresses {
  readonly #ca: string;
  readonly #agents = new Map<string, Agent>();

  constructor(ca: string) {
    this.#ca = ca;
  }

  /** The pool whose connections leave from `address` (localAddress on the pool: undici ignores it in `connect`). */
  from(address: string): Agent {
    let agent = this.#agents.get(address);
    if (agent === undefined) {
      agent = new Agent({
        localAddress: address,
        connect: { ca: this.#ca, servername: 'localhost' },
        connections: 4,
      });
      this.#agents.set(address, agent);
    }
    return agent;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#agents.values()].map((agent) => agent.close()));
  }
}

/** `count` addresses 127.0.`block`.1, .2, …: a block per test keeps each test's per-IP windows its own. */
export const addresses = (block: number, count: number): string[] =>
  Array.from({ length: count }, (_, i) => `127.0.${block}.${i + 1}`);

/** One GET, timed. */
export async function timedGet(
  dispatcher: Dispatcher,
  url: string,
  headers: Record<string, string> = {},
): Promise<Sample> {
  const sentAt = performance.now();
  const reply = await request(url, { dispatcher, headers });
  const body = await reply.body.text();
  const retryAfter = reply.headers['retry-after'];
  return {
    sentAt,
    doneAt: performance.now(),
    status: reply.statusCode,
    retryAfter: retryAfter === undefined ? undefined : Number(retryAfter),
    body,
  };
}

/**
 * An open loop: request `i` sent at `i / rate` seconds from the start, whatever the answers before it,
 * for `durationMs`; resolves with every sample once all are answered.
 */
export async function pacedLoad(
  rate: number,
  durationMs: number,
  send: (index: number) => Promise<Sample>,
): Promise<Sample[]> {
  const pending: Promise<Sample>[] = [];
  const start = performance.now();
  for (let i = 0; ; i += 1) {
    const due = start + (i * 1000) / rate;
    if (due > start + durationMs) break;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(send(i));
  }
  return Promise.all(pending);
}

export interface ThrottleWindow {
  /** When the window's first accepted request was sent. */
  readonly start: number;
  readonly accepted: number;
  readonly refused: number;
}

/**
 * The gateway throttle's one-second windows in a saturated stream, as the client saw them: a window
 * opens with an accepted request sent after a refused one, at least half a second after the previous
 * opening (so an answer overtaken by a later one does not split a window).
 */
export function throttleWindows(samples: readonly Sample[]): ThrottleWindow[] {
  const ordered = [...samples].sort((a, b) => a.sentAt - b.sentAt);
  const found: Array<{ start: number; accepted: number; refused: number }> = [];
  let previous: Sample | undefined;
  for (const sample of ordered) {
    const current = found.at(-1);
    const opens =
      sample.status === 200 &&
      (current === undefined || (previous?.status === 429 && sample.sentAt - current.start >= 500));
    if (opens) found.push({ start: sample.sentAt, accepted: 0, refused: 0 });
    const open = found.at(-1);
    if (open !== undefined) {
      if (sample.status === 200) open.accepted += 1;
      else open.refused += 1;
    }
    previous = sample;
  }
  return found;
}

export interface DirectReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The parsed body, or the raw text when it is not JSON. */
  readonly body: unknown;
  readonly text: string;
}

/**
 * One request to `instance` itself, as nginx sends it: plain HTTP with `X-Forwarded-Proto: https`.
 * A JSON `body` or a `form` (URL-encoded) may be sent.
 */
export async function direct(
  instance: ClusterInstance,
  path: string,
  options: {
    readonly method?: Dispatcher.HttpMethod;
    readonly token?: string;
    readonly body?: unknown;
    readonly form?: Record<string, string>;
    readonly headers?: Record<string, string>;
  } = {},
): Promise<DirectReply> {
  const headers: Record<string, string> = { 'x-forwarded-proto': 'https', ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  } else if (options.form !== undefined) {
    body = new URLSearchParams(options.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  const reply = await request(`${instance.url}${path}`, {
    method: options.method ?? 'GET',
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await reply.body.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the raw text is the body.
  }
  return { status: reply.statusCode, headers: reply.headers, body: parsed, text };
}
