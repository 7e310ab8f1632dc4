import type { SigningKeyWatcher } from '../ports/signing-key-store.ts';

/** How often a token server asks where its keys live whether they changed. */
export const KEY_SET_POLL_MS = 1000;

/**
 * A watch by polling a cheap version read, for every adapter: inotify loses track of a file
 * replaced by rename, and PostgreSQL's LISTEN would need a connection held outside the pool,
 * listening again after every reconnection, and a read of the version after each anyway, since a
 * notification sent while disconnected is lost. A one-row read a second per instance costs nothing.
 */
export function pollKeySetVersion(options: {
  readonly readVersion: () => Promise<string | undefined>;
  readonly since: string | undefined;
  readonly watcher: SigningKeyWatcher;
  readonly intervalMs?: number;
}): () => void {
  const { readVersion, watcher, intervalMs = KEY_SET_POLL_MS } = options;
  let seen = options.since;
  let failing = false;
  let stopped = false;
  let timer: NodeJS.Timeout;
  const poll = async () => {
    try {
      const version = await readVersion();
      failing = false;
      if (!stopped && version !== seen) {
        seen = version;
        watcher.onChange();
      }
    } catch (error) {
      if (!stopped && !failing) watcher.onError(error);
      failing = true;
    }
    if (!stopped) schedule();
  };
  const schedule = () => {
    timer = setTimeout(() => void poll(), intervalMs);
    // Polling alone never keeps the process alive.
    timer.unref();
  };
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
