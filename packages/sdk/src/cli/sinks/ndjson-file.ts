// The NDJSON file's consistency, by streaming: memory stays bounded by the number of distinct ids (a
// UUID and a line number, 20 to 54 bytes per id), never by the file's size, so a catalogue past V8's string limit compacts too.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { IdMap } from '../../sync/id-set.ts';

const NEWLINE = 0x0a;
const NEWLINE_BYTES = Buffer.from('\n');
const READ_CHUNK = 1 << 20;
const WRITE_BATCH = 1 << 20;

/** A line of the output that is not a product: the file and the line are named. */
export class NdjsonLineError extends Error {
  override readonly name = 'NdjsonLineError';
}

/**
 * Drops a last line that has no newline (a write cut short by a crash); returns the bytes dropped.
 * Every complete line was written, flushed and only then referenced by a saved cursor.
 */
export async function truncateToLastCompleteLine(handle: FileHandle): Promise<number> {
  const { size } = await handle.stat();
  const buffer = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - buffer.length);
    const { bytesRead } = await handle.read(buffer, 0, end - start, start);
    const at = buffer.subarray(0, bytesRead).lastIndexOf(NEWLINE);
    if (at >= 0) {
      const keep = start + at + 1;
      if (keep < size) await handle.truncate(keep);
      return size - keep;
    }
    end = start;
  }
  if (size > 0) await handle.truncate(0);
  return size;
}

/** Yields each complete line (without its newline) and its 1-based number; a last line without one too. */
async function* lines(path: string): AsyncGenerator<{ line: Buffer; number: number }> {
  let rest: Buffer = Buffer.alloc(0);
  let number = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: READ_CHUNK }) as AsyncIterable<Buffer>) {
    let data = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
    let from = 0;
    for (let at = data.indexOf(NEWLINE, from); at >= 0; at = data.indexOf(NEWLINE, from)) {
      number += 1;
      yield { line: data.subarray(from, at), number };
      from = at + 1;
    }
    // Copy the tail so the chunk it came from can be collected.
    data = data.subarray(from);
    rest = Buffer.from(data);
  }
  if (rest.length > 0) yield { line: rest, number: number + 1 };
}

function idOf(path: string, line: Buffer, number: number): string {
  let value: unknown;
  try {
    value = JSON.parse(line.toString('utf8'));
  } catch (error) {
    throw new NdjsonLineError(`${path}:${number}: not a JSON line (${(error as Error).message})`);
  }
  const id = (value as { id?: unknown } | null)?.id;
  if (typeof id !== 'string') throw new NdjsonLineError(`${path}:${number}: the line has no string "id"`);
  return id;
}

/** A growable bit set of line numbers. */
class LineSet {
  #bits = new Uint8Array(1024);
  add(n: number): void {
    if (n >> 3 >= this.#bits.length) {
      const grown = new Uint8Array(Math.max(this.#bits.length * 2, (n >> 3) + 1));
      grown.set(this.#bits);
      this.#bits = grown;
    }
    this.#bits[n >> 3] = (this.#bits[n >> 3] ?? 0) | (1 << (n & 7));
  }
  delete(n: number): void {
    this.#bits[n >> 3] = (this.#bits[n >> 3] ?? 0) & ~(1 << (n & 7));
  }
  has(n: number): boolean {
    return ((this.#bits[n >> 3] ?? 0) & (1 << (n & 7))) !== 0;
  }
}

/**
 * Rewrites the file with one line per id, the last write of each id winning and keeping its position,
 * atomically (temporary file, fsync, rename) and with the file's mode and, where allowed, its owner.
 * A file already compact is left as it is. Throws NdjsonLineError naming the file and line of a bad line.
 */
export async function compactNdjson(path: string): Promise<{ lines: number; kept: number }> {
  // First pass: the last line of each id.
  const lastLineOf = new IdMap();
  const keep = new LineSet();
  let total = 0;
  let dropped = 0;
  for await (const { line, number } of lines(path)) {
    total = number;
    if (line.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d)) {
      dropped += 1;
      continue;
    }
    const id = idOf(path, line, number);
    const previous = lastLineOf.get(id);
    if (previous !== undefined) {
      keep.delete(previous);
      dropped += 1;
    }
    lastLineOf.set(id, number);
    keep.add(number);
  }
  const kept = lastLineOf.size;
  if (dropped === 0) return { lines: total, kept };

  // Second pass: copy the kept lines, in file order, to a temporary file beside the output.
  const source = await open(path, 'r');
  const { mode, uid, gid } = await source.stat();
  await source.close();
  const temporary = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  const target = await open(temporary, 'wx', mode & 0o777);
  try {
    // open() applies the umask; chmod does not.
    await target.chmod(mode & 0o7777);
    await target.chown(uid, gid).catch(() => undefined); // allowed only to root or to the same owner
    let batch: Buffer[] = [];
    let batched = 0;
    const flush = async () => {
      if (batched > 0) await target.write(Buffer.concat(batch, batched));
      batch = [];
      batched = 0;
    };
    for await (const { line, number } of lines(path)) {
      if (!keep.has(number)) continue;
      batch.push(line, NEWLINE_BYTES);
      batched += line.length + 1;
      if (batched >= WRITE_BATCH) await flush();
    }
    await flush();
    await target.sync();
    await target.close();
    await rename(temporary, path);
  } catch (error) {
    await target.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
  const directory = await open(dirname(path), 'r');
  await directory.sync().finally(() => directory.close());
  return { lines: total, kept };
}
