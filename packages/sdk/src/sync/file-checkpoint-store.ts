// The built-in checkpoint store: one JSON file, replaced atomically (write a temporary file, fsync, rename).
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CheckpointStore, SyncProgress, SyncState } from './checkpoint-store.ts';
import { EMPTY_SYNC_STATE } from './checkpoint-store.ts';

interface FileContent extends SyncState {
  readonly version: 1;
}

export async function writeFileAtomic(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temporary, 'w', 0o600);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

export function createFileCheckpointStore(path: string): CheckpointStore {
  const read = async (): Promise<SyncState> => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY_SYNC_STATE;
      throw error;
    }
    const content = JSON.parse(text) as Partial<FileContent>;
    if (content.version !== 1) throw new Error(`${path}: not a catalog-sync checkpoint file (version 1)`);
    return { checkpoint: content.checkpoint ?? null, progress: content.progress ?? null };
  };
  const write = (state: SyncState): Promise<void> =>
    writeFileAtomic(path, `${JSON.stringify({ version: 1, ...state } satisfies FileContent, null, 2)}\n`);

  return {
    load: read,
    async saveProgress(progress: SyncProgress) {
      const { checkpoint } = await read();
      await write({ checkpoint, progress });
    },
    async clearProgress() {
      const { checkpoint } = await read();
      await write({ checkpoint, progress: null });
    },
    commit: (checkpoint) => write({ checkpoint, progress: null }),
  };
}
