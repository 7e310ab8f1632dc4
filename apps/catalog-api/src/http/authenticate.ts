import type { Middleware } from 'koa';
import { bearerToken } from '../auth/bearer-token.ts';
import { InvalidTokenError } from '../auth/token-errors.ts';
import type { TokenVerifier } from '../auth/token-verifier.ts';
import type { AppState } from './app-state.ts';

/** Puts the verified caller on `ctx.state.principal`, or answers 401 (spec 7.1). */
export function authenticate(verifier: TokenVerifier): Middleware<AppState> {
  return async (ctx, next) => {
    const token = bearerToken(ctx.get('Authorization') || undefined);
    if (token === undefined) throw new InvalidTokenError('no bearer token');
    try {
      ctx.state.principal = await verifier.verify(token, ctx.state.trace);
    } catch (error) {
      if (error instanceof InvalidTokenError) ctx.state.log.info({ reason: error.reason }, 'token refused');
      throw error;
    }
    await next();
  };
}
