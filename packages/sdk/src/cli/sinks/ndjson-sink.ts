// NDJSON file sink. Each page is appended and flushed before the sync saves its cursor, so a crashed pass
// loses nothing; after a clean pass the file is compacted to one line per id (the last one wins), atomically.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { writeFileAtomic } from '../../sync/file-checkpoint-store.ts';
import type { ProductSink } from './sink.ts';

async function compact(path: string): Promise<void> {
  const lines = new Map<string, string>();
  const input = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of input) {
    if (line.trim() === '') continue;
    const { id } = JSON.parse(line) as { id: string };
    lines.delete(id); // keep the latest write's position last
    lines.set(id, line);
  }
  await writeFileAtomic(path, lines.size === 0 ? '' : `${[...lines.values()].join('\n')}\n`);
}

export async function openNdjsonSink(path: string): Promise<ProductSink> {
  const handle = await open(path, 'a', 0o644);
  let open_ = true;
  const close = async () => {
    if (open_) {
      open_ = false;
      await handle.close();
    }
  };
  return {
    async upsert(products) {
      await handle.appendFile(products.map((product) => `${JSON.stringify(product)}\n`).join(''));
      await handle.datasync();
    },
    async finish() {
      await close();
      await compact(path);
    },
    close,
  };
}
