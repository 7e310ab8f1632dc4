import { ServiceError, type ValidationIssue } from '@catalog/contracts';
import { bodyParser } from '@koa/bodyparser';
import type { Context } from 'koa';

export const JSON_BODY_LIMIT = '1mb';
/** Deeper than any record of the contract; deeper input would exhaust the stack further down. */
export const JSON_BODY_MAX_DEPTH = 32;

// A PATCH body is a JSON Merge Patch (RFC 7396): JSON under a media type of its own.
const parse = bodyParser({
  enableTypes: ['json'],
  extendTypes: { json: ['application/json', 'application/merge-patch+json'] },
  jsonLimit: JSON_BODY_LIMIT,
  encoding: 'utf-8',
});

/** Nesting depth of a parsed JSON value, without recursion (the value may be nested 100,000 deep). */
function depthExceeds(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

const unreadable = (reason: string): ValidationIssue => ({ field: 'body', reason, code: 'VALIDATION_ERROR' });

/**
 * Codes of the errors node:zlib raises for data that does not decode: zlib's own (`Z_DATA_ERROR`,
 * `Z_BUF_ERROR` for a truncated stream) for gzip and deflate, and the brotli decoder's
 * (`ERR__ERROR_FORMAT_PADDING_2`…: "ERR_" and the decoder's error name) for br, which carry no `Z_`.
 */
const DECODING_ERROR_CODE = /^(?:Z_|ERR__ERROR_)/;

const isDecodingError = (error: unknown): boolean => {
  const { errno, code } = (typeof error === 'object' && error !== null ? error : {}) as {
    errno?: unknown;
    code?: unknown;
  };
  return typeof errno === 'number' && typeof code === 'string' && DECODING_ERROR_CODE.test(code);
};

/**
 * The body parser's errors the service expects, each in the contract's terms (its own messages are
 * not passed on): raw-body's 413 (`entity.too.large`) and inflation's 415 (an unknown
 * Content-Encoding) are thrown as such; JSON that does not parse (co-body's 400 SyntaxError), a
 * compressed body that does not decode (node:zlib's errors) and a body shorter or longer than its
 * Content-Length (`request.size.invalid`, `request.aborted`) are the caller's invalid body. Anything
 * else is rethrown: the generic 500, logged.
 */
function bodyParserIssue(error: unknown, encoding: string): ValidationIssue {
  const { status, type } = (typeof error === 'object' && error !== null ? error : {}) as {
    status?: unknown;
    type?: unknown;
  };
  if (type === 'entity.too.large')
    throw new ServiceError(413, undefined, `The request body is larger than ${JSON_BODY_LIMIT}`);
  if (status === 415 && type === undefined) {
    throw new ServiceError(
      415,
      undefined,
      'Send the body uncompressed, or with Content-Encoding gzip, deflate or br',
    );
  }
  if (error instanceof SyntaxError && status === 400) return unreadable('must be valid JSON');
  if (isDecodingError(error)) return unreadable(`could not be decoded as Content-Encoding ${encoding}`);
  if (type === 'request.size.invalid' || type === 'request.aborted')
    return unreadable('must be as long as its Content-Length says');
  throw error;
}

/**
 * Reads a route's JSON body (up to 1 MB) into `ctx.request.body`. A body over the limit is a 413 in
 * the contract's error shape; malformed JSON, or JSON nested deeper than any contract record, is
 * returned as a validation issue for the route to answer in its own error shape. Only routes that
 * take a body call it, after the caller was authenticated and authorised.
 */
export async function readJsonBody(ctx: Context): Promise<ValidationIssue | undefined> {
  try {
    await parse(ctx as never, async () => undefined);
  } catch (error) {
    return bodyParserIssue(error, ctx.get('Content-Encoding'));
  }
  if (depthExceeds(ctx.request.body, JSON_BODY_MAX_DEPTH)) {
    return {
      field: 'body',
      reason: `must not be nested more than ${JSON_BODY_MAX_DEPTH} levels deep`,
      code: 'VALIDATION_ERROR',
    };
  }
  return undefined;
}
