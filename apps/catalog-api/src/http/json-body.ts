import { ServiceError, type ValidationIssue } from '@catalog/contracts';
import { bodyParser } from '@koa/bodyparser';
import type { Context } from 'koa';

export const JSON_BODY_LIMIT = '1mb';
/** Deeper than any record of the contract; deeper input would exhaust the stack further down. */
export const JSON_BODY_MAX_DEPTH = 32;

const parse = bodyParser({ enableTypes: ['json'], jsonLimit: JSON_BODY_LIMIT, encoding: 'utf-8' });

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
 * The body parser's errors the service expects, each in the contract's terms (its own messages are
 * not passed on): raw-body's 413 (`entity.too.large`) and inflation's 415 (an unknown
 * Content-Encoding) are thrown as such; JSON that does not parse (co-body's 400 SyntaxError), a
 * compressed body that does not inflate (zlib's `Z_*` codes) and a body shorter or longer than its
 * Content-Length (`request.size.invalid`, `request.aborted`) are the caller's invalid body. Anything
 * else is rethrown: the generic 500, logged.
 */
function bodyParserIssue(error: unknown): ValidationIssue {
  const { status, type, code } = (typeof error === 'object' && error !== null ? error : {}) as {
    status?: unknown;
    type?: unknown;
    code?: unknown;
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
  if (typeof code === 'string' && code.startsWith('Z_'))
    return unreadable('must be valid data of its Content-Encoding');
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
    return bodyParserIssue(error);
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
