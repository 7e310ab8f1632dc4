// NDJSON file sink. Each page is appended and flushed before the sync saves its cursor, so a crashed pass
// loses nothing; a line cut short by a crash is dropped when the file is next opened; after a clean pass,
// before the checkpoint commits, the file is compacted to one line per id (the last one wins).
import { type FileHandle, open } from 'node:fs/promises';
import { compactNdjson, truncateToLastCompleteLine } from './ndjson-file.ts';
import type { ProductSink } from './sink.ts';

export interface NdjsonSinkOptions {
  /** Told when a partial last line was dropped on opening. */
  readonly onRepair?: (event: { path: string; droppedBytes: number }) => void;
}

export function openNdjsonSink(path: string, options: NdjsonSinkOptions = {}): ProductSink {
  let handle: FileHandle | undefined;
  let closed = false;
  const ready = async (): Promise<FileHandle> => {
    if (handle !== undefined) return handle;
    if (closed) throw new Error(`${path}: the sink is closed`);
    const opened = await open(path, 'a+', 0o644);
    try {
      const droppedBytes = await truncateToLastCompleteLine(opened);
      if (droppedBytes > 0) options.onRepair?.({ path, droppedBytes });
    } catch (error) {
      await opened.close();
      throw error;
    }
    handle = opened;
    return opened;
  };
  const close = async () => {
    closed = true;
    const open_ = handle;
    handle = undefined;
    await open_?.close();
  };
  return {
    async upsert(products) {
      const file = await ready();
      await file.appendFile(products.map((product) => `${JSON.stringify(product)}\n`).join(''));
      await file.datasync();
    },
    async finish() {
      await ready();
      await close();
      await compactNdjson(path);
    },
    close,
  };
}
