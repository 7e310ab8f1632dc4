import { type StatWatcher, unwatchFile, watchFile } from 'node:fs';

const POLL_MS = 1000;

/**
 * Calls `onChange` when the key file is replaced (`pnpm admin keys rotate` renames a new file into
 * place). Stat polling is used rather than inotify, which loses track of a file replaced by rename.
 */
export function watchSigningKeys(file: string, onChange: () => void): () => void {
  const listener = (
    current: { mtimeMs: number; ino: number },
    previous: { mtimeMs: number; ino: number },
  ) => {
    if (current.mtimeMs !== previous.mtimeMs || current.ino !== previous.ino) onChange();
  };
  const watcher: StatWatcher = watchFile(file, { interval: POLL_MS, persistent: false }, listener);
  watcher.unref();
  return () => unwatchFile(file, listener);
}
