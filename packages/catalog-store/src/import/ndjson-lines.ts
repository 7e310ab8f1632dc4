import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export interface NdjsonLine {
  /** 1-based, as editors show it. */
  number: number;
  text: string;
  /** Bytes of the file consumed up to and including this line. */
  bytesRead: number;
}

/** Streams the non-blank lines of a file; memory stays flat whatever its size. */
export async function* ndjsonLines(filePath: string): AsyncGenerator<NdjsonLine> {
  const stream = createReadStream(filePath);
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let number = 0;
  let bytesRead = 0;
  for await (const text of lines) {
    number += 1;
    bytesRead += Buffer.byteLength(text) + 1;
    if (text.trim() === '') continue;
    yield { number, text, bytesRead };
  }
}
