import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LevelWithSilent, Logger } from 'pino';
import type { TransportConfig } from './config/common-env.ts';
import type { ServiceSettingsWithData } from './config/service-settings.ts';
import { prepareDataDir } from './data-dir/prepare-data-dir.ts';
import type { ConnectionTimeouts } from './http/connection-timeouts.ts';
import { listen, type RunningServer } from './http/listen.ts';
import { serviceUrl } from './http/service-url.ts';
import { onShutdownSignal } from './http/shutdown.ts';
import { createLogger } from './logging/logger.ts';
import { exitOnStartupError } from './startup.ts';
import { resolveTls } from './tls/resolve-tls.ts';

export interface ServiceSettings {
  readonly host: string;
  readonly port: number;
  readonly basePath: string;
  readonly logLevel: LevelWithSilent;
  readonly transport: TransportConfig;
  readonly timeouts: ConnectionTimeouts;
  readonly publicUrl: string | undefined;
}

export interface ServiceParts {
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** Releases what the service holds (database handles, timers) after the last request. */
  readonly close?: () => Promise<void>;
  /** Runs once the URL is known (the port may be 0), before the service announces that it listens. */
  readonly ready?: (url: string) => void;
}

export interface StartedService {
  readonly server: RunningServer;
  readonly url: string;
  readonly logger: Logger;
}

/**
 * The start-up sequence both servers share: DATA_DIR, TLS material, listen, announce the URL, stop cleanly
 * on SIGTERM/SIGINT. Configuration must already be parsed; start-up failures end the process with
 * an operator-readable message.
 */
export async function startHttpService(options: {
  readonly service: string;
  readonly settings: ServiceSettingsWithData;
  readonly portVariable: string;
  readonly build: (logger: Logger) => Promise<ServiceParts> | ServiceParts;
}): Promise<StartedService> {
  const { settings } = options;
  const logger = createLogger(options.service, settings.logLevel);
  try {
    await prepareDataDir(settings.dataDir, logger);
    const tls = await resolveTls(settings.transport);
    const parts = await options.build(logger);
    const server = await listen({
      handler: parts.handler,
      host: settings.host,
      port: settings.port,
      tls,
      portVariable: options.portVariable,
      timeouts: settings.timeouts,
    });
    // Before announcing the URL: whoever waits for "listening" may signal at once.
    onShutdownSignal(logger, async () => {
      await server.close();
      await parts.close?.();
    });
    const url = serviceUrl(settings, server.port);
    parts.ready?.(url);
    logger.info(
      { url, port: server.port, transport: settings.transport.mode, caFile: tls?.caFile },
      'listening',
    );
    if (tls?.caFile) logger.info(`try: curl --cacert ${tls.caFile} ${url}/health`);
    return { server, url, logger };
  } catch (error) {
    return exitOnStartupError(error, logger);
  }
}
