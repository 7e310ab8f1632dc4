import { ServiceError } from '@catalog/contracts';
import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import type { AppState } from './app-state.ts';

export const JSON_BODY_LIMIT = '1mb';

/**
 * Parses JSON bodies up to 1 MB. Malformed JSON is a 400 VALIDATION_ERROR and an oversized body a
 * 413, both in the contract's error shape; other content types are left unparsed (routes that take
 * a body answer 415).
 */
export function jsonBody(): Middleware<AppState> {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: JSON_BODY_LIMIT, encoding: 'utf-8' });
  return async (ctx, next) => {
    try {
      await parse(ctx as never, async () => undefined);
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 413)
        throw new ServiceError(413, undefined, `The request body is larger than ${JSON_BODY_LIMIT}`);
      throw ServiceError.of('VALIDATION_ERROR', 'The request body is not valid JSON', {
        details: { field: 'body', reason: 'must be valid JSON' },
        cause: error,
      });
    }
    await next();
  };
}
