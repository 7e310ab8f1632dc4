import type { Context } from 'koa';

/** The request body is not a small url-encoded form. */
export class FormBodyError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'FormBodyError';
    this.status = status;
  }
}

const MAX_FORM_BYTES = 8 * 1024;

/** Reads a url-encoded form of at most 8 KiB; the login form has three short fields. */
export async function readForm(ctx: Context): Promise<URLSearchParams> {
  if (!ctx.is('application/x-www-form-urlencoded')) {
    throw new FormBodyError(415, 'expected an application/x-www-form-urlencoded form');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) throw new FormBodyError(413, 'form too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
