// A lock file so two runs never overlap. A lock left by a process that no longer exists is taken over.
import { open, readFile, rm } from 'node:fs/promises';

export class LockHeldError extends Error {
  override readonly name = 'LockHeldError';
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock at `path`; resolves with its release function, or rejects with LockHeldError. */
export async function acquireLock(path: string): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.writeFile(JSON.stringify({ pid: process.pid, since: new Date().toISOString() }));
      await handle.close();
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = await readFile(path, 'utf8').then(
        (text) => JSON.parse(text) as { pid?: number },
        () => ({}) as { pid?: number },
      );
      if (typeof holder.pid === 'number' && alive(holder.pid)) {
        throw new LockHeldError(`another catalog-sync run (pid ${holder.pid}) holds the lock ${path}`);
      }
      await rm(path, { force: true });
    }
  }
  throw new LockHeldError(`could not take the lock ${path}`);
}
