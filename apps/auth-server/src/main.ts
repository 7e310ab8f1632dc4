import { exitOnStartupError, startHttpService } from '@catalog/server-runtime';
import { createApp } from './app.ts';
import { loadAuthServerConfig } from './config/config.ts';

try {
  const config = loadAuthServerConfig();
  await startHttpService({
    service: 'auth-server',
    settings: config,
    portVariable: 'AUTH_SERVER_PORT',
    build: (logger) => ({ handler: createApp({ config, logger }).callback() }),
  });
} catch (error) {
  exitOnStartupError(error);
}
