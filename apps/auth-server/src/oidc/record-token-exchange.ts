import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { IssuableClients } from '../ports/issuable-clients.ts';

interface OidcState {
  oidc?: { client?: { clientId: string; grantTypeAllowed(type: string): boolean } };
}

/**
 * Records lastUsedAt after each successful client-credentials exchange (spec 2.4). The token is
 * already issued, so a failed write is logged rather than turned into an error for the caller.
 */
export function recordTokenExchange(tokenPath: string, clients: IssuableClients, logger: Logger): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.path !== tokenPath || ctx.status !== 200) return;
    const client = (ctx as unknown as OidcState).oidc?.client;
    if (client === undefined || !client.grantTypeAllowed('client_credentials')) return;
    try {
      await clients.recordTokenExchange(client.clientId, new Date());
    } catch (error) {
      logger.error({ err: error, clientId: client.clientId }, 'could not record lastUsedAt');
    }
  };
}
