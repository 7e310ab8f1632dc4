import { type AccessRule, ADMIN_GROUP, ServiceError } from '@catalog/contracts';
import type { Middleware } from 'koa';
import type { AppState } from './app-state.ts';
import { GatewayError } from './gateway-error.ts';

const adminRoleRequired = () => new ServiceError(403, 'FORBIDDEN', 'Admin role required');

/**
 * Applies an operation's access rule (read off the contract's `security`) to the verified caller:
 * an administrator's ID token needs the admin group; an M2M token needs the route's scope and never
 * reaches an admin-only route, whatever scopes it holds (spec 4.1, 5.4).
 */
export function authorize(rule: AccessRule): Middleware<AppState> {
  return async (ctx, next) => {
    const principal = ctx.state.principal;
    if (rule.kind === 'public') return next();
    if (principal === undefined) throw new Error('authorize() runs after authenticate()');
    if (principal.kind === 'user') {
      if (!principal.groups.includes(ADMIN_GROUP)) throw adminRoleRequired();
      return next();
    }
    if (rule.kind === 'admin') throw adminRoleRequired();
    if (!principal.scopes.has(rule.scope)) throw GatewayError.forbidden();
    return next();
  };
}
