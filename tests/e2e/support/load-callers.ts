// Callers from loopback addresses of their own (127.0.x.y, every one of them this machine), so that
// the server, or nginx and the per-IP limit behind it, sees each as another client; timed samples of
// their requests, open-loop load, and the gateway throttle's windows as the callers saw them.
import { Agent, type Dispatcher, request } from 'undici';

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
