import {
  healthCheck,
  type RequestContextState,
  requestContext,
  requireForwardedHttps,
  securityHeaders,
} from '@catalog/server-runtime';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { AuthServerConfig } from './config/config.ts';
import { interactionRoutes } from './login/interaction-routes.ts';
import { mountProvider } from './oidc/mount-provider.ts';
import type { ProviderHolder } from './oidc/provider-holder.ts';
import type { AdminAccounts } from './ports/admin-accounts.ts';
import type { LoginAttempts } from './ports/login-attempts.ts';

export interface AuthServerDeps {
  readonly config: AuthServerConfig;
  readonly logger: Logger;
  readonly provider: ProviderHolder;
  readonly accounts: AdminAccounts;
  readonly loginAttempts: LoginAttempts;
  /** Keys the login form's CSRF tokens. */
  readonly csrfKey: Uint8Array;
}

/** Builds the token server without listening, so tests and main.ts start it the same way. */
export function createApp(deps: AuthServerDeps): Koa<RequestContextState> {
  const { config, logger } = deps;
  const app = new Koa<RequestContextState>({ proxy: config.transport.mode === 'behind-proxy' });
  const healthPath = `${config.basePath}/health`;
  app.use(requestContext(logger));
  app.use(securityHeaders());
  if (config.transport.mode === 'behind-proxy') app.use(requireForwardedHttps(healthPath));
  app.use(healthCheck(healthPath, 'auth-server'));
  app.use(
    interactionRoutes({
      basePath: config.basePath,
      holder: deps.provider,
      accounts: deps.accounts,
      attempts: deps.loginAttempts,
      csrfKey: deps.csrfKey,
    }),
  );
  // Everything else under BASE_PATH is the provider's: token, JWKS, discovery, authorization.
  app.use(mountProvider(config.basePath, deps.provider));
  app.use(async (ctx) => {
    ctx.status = 404;
    ctx.body = { error: 'not_found', error_description: 'No such endpoint' };
  });
  return app;
}
