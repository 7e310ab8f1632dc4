import { exitOnStartupError, startHttpService } from '@catalog/server-runtime';
import { buildAuthServer } from './auth-server.ts';
import { loadAuthServerConfig } from './config/config.ts';
import { AuthMetrics } from './metrics/auth-metrics.ts';

try {
  const config = loadAuthServerConfig();
  await startHttpService({
    service: 'auth-server',
    settings: config,
    portVariable: 'AUTH_SERVER_PORT',
    build: async (logger, shutdown) => {
      const metrics = new AuthMetrics({ enabled: config.metrics.enabled });
      const server = await buildAuthServer({ config, logger, metrics, shutdown });
      return {
        handler: server.handler,
        metrics: metrics.registry,
        close: () => server.close(),
        // The issuer is the public URL, which names the real port only once the server listens.
        ready: (url) => server.start(url),
      };
    },
  });
} catch (error) {
  exitOnStartupError(error);
}
