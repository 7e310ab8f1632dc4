import { ADMIN_GROUP, ServiceError } from '@catalog/contracts';
import {
  type AdminUser,
  type CatalogStore,
  type ClientStore,
  isAdminUserDisabled,
  isClientUsable,
} from '@catalog/store';
import type { Middleware } from 'koa';
import type { UserPrincipal } from '../auth/principal.ts';
import type { CatalogMetrics } from '../metrics/catalog-metrics.ts';
import type { UsageCounter } from '../usage/usage-counter.ts';
import type { AppState } from './app-state.ts';
import { GatewayError } from './gateway-error.ts';

const isActiveAdmin = (user: AdminUser | undefined): user is AdminUser =>
  user !== undefined && !isAdminUserDisabled(user) && user.groups.includes(ADMIN_GROUP);

/**
 * Reads the caller on every request, so that what was withdrawn counts from the next request.
 *
 * An M2M caller: counts the call; a revoked or expired client's tokens are refused (403, spec 3,
 * 5.8). When the store cannot answer, the token is accepted until it expires, as the spec allows,
 * and that is logged and counted (catalog_revocation_checks_failed_open_total).
 *
 * An administrator (ID token): refused with the admin routes' 403 "Admin role required" when the
 * account is disabled, deleted or no longer in the admin group, although the token (up to an hour
 * old) says otherwise. When the store cannot answer, the request is refused (the generic 500): an
 * admin token creates clients and rewrites the catalogue, which is worth more than the few requests
 * of a store outage; and an admin request that gets past this check needs the same store anyway.
 */
export function checkClientStatus(
  store: Pick<CatalogStore, 'clients' | 'adminUsers'>,
  usage: UsageCounter,
  metrics?: Pick<CatalogMetrics, 'revocationFailedOpen'>,
  now: () => number = Date.now,
): Middleware<AppState> {
  const checkAdmin = async (principal: UserPrincipal) => {
    let user: AdminUser | undefined;
    try {
      user = await store.adminUsers.get(principal.userId);
    } catch (error) {
      throw new Error('administrator status check unavailable: request refused', { cause: error });
    }
    return isActiveAdmin(user);
  };

  return async (ctx, next) => {
    const principal = ctx.state.principal;
    ctx.state.channel = null;
    if (principal?.kind === 'user') {
      if (!(await checkAdmin(principal))) {
        ctx.state.log.info(
          { userId: principal.userId },
          'ID token of a disabled, deleted or demoted administrator refused',
        );
        throw new ServiceError(403, 'FORBIDDEN', 'Admin role required');
      }
      return next();
    }
    if (principal?.kind !== 'm2m') return next();
    usage.record(principal.clientId);
    let client: Awaited<ReturnType<ClientStore['get']>>;
    try {
      client = await store.clients.get(principal.clientId);
    } catch (error) {
      metrics?.revocationFailedOpen();
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
