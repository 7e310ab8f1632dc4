import { readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { SigningKeySetChangedError } from '../../keys/signing-key-set-errors.ts';

/** A replacement takes milliseconds; a lock this old was left by a process that died holding it. */
const STALE_AFTER_MS = 60_000;

/** Whether the lock's holder is gone: dead, or holding it far longer than a replacement takes. */
async function isStale(lock: string): Promise<boolean> {
  let text: string;
  let modified: number;
  try {
    [text, { mtimeMs: modified }] = await Promise.all([readFile(lock, 'utf8'), stat(lock)]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  if (Date.now() - modified > STALE_AFTER_MS) return true;
  const pid = Number(text.trim());
  // Created but not yet written by its holder: held.
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function takeLock(lock: string, place: string): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      await writeFile(lock, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (!(await isStale(lock))) break;
    await unlink(lock).catch(() => undefined);
  }
  // Held by a live process: another rotation is replacing the set at this moment.
  throw new SigningKeySetChangedError(place);
}

/**
 * Runs `work` holding `<file>.lock` (created exclusively, naming this process), so that the check
 * of the version and the rename that follows it are one step for every process sharing DATA_DIR:
 * a compare-and-set on a file. A second replacement meanwhile is refused, not queued.
 */
export async function withReplaceLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  await takeLock(lock, file);
  try {
    return await work();
  } finally {
    await unlink(lock).catch(() => undefined);
  }
}
