// A pacer shared by every process on one machine (one source IP) through a small state file: the send
// times of the last window, read and rewritten under an exclusive lock file. Per-second and per-window
// limits are both sliding windows here.
import { open, readFile, rename, rm, stat } from 'node:fs/promises';
import { sleep } from './backoff.ts';
import { DEFAULT_PACING, type RequestPacer } from './pacer.ts';

export interface FilePacerOptions {
  /** The state file; every process pacing together names the same one. */
  readonly path: string;
  readonly requestsPerSecond?: number;
  readonly windowRequests?: number;
  readonly windowMs?: number;
  /** Extra wait before a request leaves the rolling window (default 1 000 ms). */
  readonly windowMarginMs?: number;
}

const STALE_LOCK_MS = 5_000;

async function withLock<T>(
  path: string,
  signal: AbortSignal | undefined,
  work: () => Promise<T>,
): Promise<T> {
  const lock = `${path}.lock`;
  for (;;) {
    try {
      const handle = await open(lock, 'wx');
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = await stat(lock).then(
        (info) => Date.now() - info.mtimeMs,
        () => 0,
      );
      if (age > STALE_LOCK_MS) await rm(lock, { force: true });
      await sleep(2, signal);
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}

export function createFilePacer(options: FilePacerOptions): RequestPacer {
  const rps = options.requestsPerSecond ?? DEFAULT_PACING.requestsPerSecond;
  const windowRequests = options.windowRequests ?? DEFAULT_PACING.windowRequests;
  const windowMs = (options.windowMs ?? DEFAULT_PACING.windowMs) + (options.windowMarginMs ?? 1000);
  const horizon = Math.max(windowRequests > 0 ? windowMs : 0, 1000);

  const tryTake = () =>
    withLock(options.path, undefined, async () => {
      const now = Date.now();
      const text = await readFile(options.path, 'utf8').catch(() => '[]');
      let sent: number[] = [];
      try {
        sent = (JSON.parse(text) as number[]).filter((at) => at > now - horizon);
      } catch {
        sent = [];
      }
      let wait = 0;
      if (rps > 0) {
        const lastSecond = sent.filter((at) => at > now - 1000);
        if (lastSecond.length >= rps) wait = (lastSecond[lastSecond.length - rps] ?? now) + 1000 - now + 1;
      }
      if (windowRequests > 0 && sent.length >= windowRequests) {
        wait = Math.max(wait, (sent[sent.length - windowRequests] ?? now) + windowMs - now + 1);
      }
      if (wait > 0) return wait;
      sent.push(now);
      const temporary = `${options.path}.${process.pid}.tmp`;
      const handle = await open(temporary, 'w');
      await handle.writeFile(JSON.stringify(sent));
      await handle.close();
      await rename(temporary, options.path);
      return 0;
    });

  return {
    async acquire(signal) {
      let waited = 0;
      for (let wait = await tryTake(); wait > 0; wait = await tryTake()) {
        await sleep(wait, signal);
        waited += wait;
      }
      return waited;
    },
  };
}
