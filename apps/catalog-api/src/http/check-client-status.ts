import { type ClientStore, isClientUsable } from '@catalog/store';
import type { Middleware } from 'koa';
import type { UsageCounter } from '../usage/usage-counter.ts';
import type { AppState } from './app-state.ts';
import { GatewayError } from './gateway-error.ts';

/**
 * For an M2M caller: counts the call, and reads the client on every request so that a revoked or
 * expired client's tokens are refused from the next request (spec 3, 5.8). When the store cannot
 * answer, the token is accepted until it expires, as the spec allows, and that is logged.
 */
export function checkClientStatus(
  clients: ClientStore,
  usage: UsageCounter,
  now: () => number = Date.now,
): Middleware<AppState> {
  return async (ctx, next) => {
    const principal = ctx.state.principal;
    ctx.state.channel = null;
    if (principal?.kind !== 'm2m') return next();
    usage.record(principal.clientId);
    let client: Awaited<ReturnType<ClientStore['get']>>;
    try {
      client = await clients.get(principal.clientId);
    } catch (error) {
      ctx.state.log.warn(
        { err: error, clientId: principal.clientId },
        'revocation check unavailable: accepting the token until it expires',
      );
      return next();
    }
    if (client === undefined || !isClientUsable(client, new Date(now()))) {
      ctx.state.log.info(
        { clientId: principal.clientId },
        'token of a revoked, expired or unknown client refused',
      );
      throw GatewayError.forbidden();
    }
    ctx.state.channel = client.channel;
    return next();
  };
}
