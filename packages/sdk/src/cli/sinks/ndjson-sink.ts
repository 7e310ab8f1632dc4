// NDJSON file sink. Pages are appended through a buffer of about 1 MiB (a full buffer is written before
// the next page is taken: backpressure), and flushed (written, fdatasync) before the sync saves a
// cursor, so a crashed pass loses nothing; a line cut short by a crash is dropped when the file is next opened; after a clean pass,
// before the checkpoint commits, the file is compacted to one line per id (the last one wins).
import { type FileHandle, open } from 'node:fs/promises';
import { compactNdjson, truncateToLastCompleteLine } from './ndjson-file.ts';
import type { ProductSink } from './sink.ts';

export interface NdjsonSinkOptions {
  /** Told when a partial last line was dropped on opening. */
  readonly onRepair?: (event: { path: string; droppedBytes: number }) => void;
}

/** Characters buffered before a write. */
const WRITE_BUFFER = 1 << 20;

export function openNdjsonSink(path: string, options: NdjsonSinkOptions = {}): ProductSink {
  let handle: FileHandle | undefined;
  let closed = false;
  // Whether the file was empty when opened, and the lines written since: when they are as many as the
  // distinct ids the pass saw, the file holds one line per id and is not read again to compact it.
  let emptyAtOpen = false;
  let linesWritten = 0;
  let buffered: string[] = [];
  let bufferedLength = 0;
  const write = async (file: FileHandle) => {
    if (bufferedLength === 0) return;
    const text = buffered.join('');
    buffered = [];
    bufferedLength = 0;
    await file.write(text);
  };
  const ready = async (): Promise<FileHandle> => {
    if (handle !== undefined) return handle;
    if (closed) throw new Error(`${path}: the sink is closed`);
    const opened = await open(path, 'a+', 0o644);
    try {
      const droppedBytes = await truncateToLastCompleteLine(opened);
      if (droppedBytes > 0) options.onRepair?.({ path, droppedBytes });
      emptyAtOpen = (await opened.stat()).size === 0;
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
    // Lines not flushed yet are kept if they can be (upserts by id: harmless either way).
    if (open_ !== undefined) await write(open_).catch(() => undefined);
    await open_?.close();
  };
  return {
    async upsert(products) {
      const file = await ready();
      let page = '';
      for (const product of products) page += `${JSON.stringify(product)}\n`;
      linesWritten += products.length;
      buffered.push(page);
      bufferedLength += page.length;
      if (bufferedLength >= WRITE_BUFFER) await write(file);
    },
    async flush() {
      const file = await ready();
      await write(file);
      await file.datasync();
    },
    async finish(pass) {
      const file = await ready();
      await write(file);
      await file.datasync();
      await close();
      const compact = emptyAtOpen && pass?.distinctIds === linesWritten;
      if (!compact) await compactNdjson(path);
    },
    close,
  };
}
