import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { quoteIdentifier } from '../adapters/postgres/open-pool.ts';
import { whileDoing } from './server-error.ts';
import type { CopyChunk } from './sqlite-source.ts';

function* texts(chunks: Iterable<CopyChunk>, onChunk: (rows: number) => void): Generator<string> {
  for (const chunk of chunks) {
    yield chunk.text;
    onChunk(chunk.rows);
  }
}

/**
 * Streams `chunks` into `table` with one COPY FROM STDIN: the next chunk is read from the source
 * while the server takes the previous ones, and no more than the stream's buffer is held. Every
 * row goes through the table's constraints as an INSERT would.
 */
export async function copyInto(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  chunks: Iterable<CopyChunk>,
  onChunk: (rows: number) => void,
): Promise<void> {
  const copy = client.query(
    copyFrom(`COPY ${table} (${columns.map(quoteIdentifier).join(', ')}) FROM STDIN`),
  );
  try {
    await pipeline(Readable.from(texts(chunks, onChunk)), copy);
  } catch (error) {
    throw whileDoing(`copying ${table}`, error);
  }
}
