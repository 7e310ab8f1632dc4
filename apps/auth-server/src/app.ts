import {
  healthCheck,
  type RequestContextState,
  requestContext,
  requireForwardedHttps,
} from '@catalog/server-runtime';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { AuthServerConfig } from './config/config.ts';

export interface AuthServerDeps {
  readonly config: AuthServerConfig;
  readonly logger: Logger;
}

/** Builds the token server without listening, so tests and main.ts start it the same way. */
export function createApp({ config, logger }: AuthServerDeps): Koa<RequestContextState> {
  const app = new Koa<RequestContextState>({ proxy: config.transport.mode === 'behind-proxy' });
  const healthPath = `${config.basePath}/health`;
  app.use(requestContext(logger));
  if (config.transport.mode === 'behind-proxy') app.use(requireForwardedHttps(healthPath));
  app.use(healthCheck(healthPath, 'auth-server'));
  app.use(async (ctx) => {
    ctx.status = 404;
    ctx.body = { error: 'not_found', error_description: 'No such endpoint' };
  });
  return app;
}
