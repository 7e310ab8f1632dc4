import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LevelWithSilent, Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { TransportConfig } from './config/common-env.ts';
import type { ServiceSettingsWithData } from './config/service-settings.ts';
import { prepareDataDir } from './data-dir/prepare-data-dir.ts';
import type { ConnectionTimeouts } from './http/connection-timeouts.ts';
import { listen, type RunningServer } from './http/listen.ts';
import { serviceUrl } from './http/service-url.ts';
import { onShutdownSignal } from './http/shutdown.ts';
import { ShutdownState } from './koa/readiness.ts';
import { createLogger } from './logging/logger.ts';
import { listenForScrapes } from './metrics/metrics-listener.ts';
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
  /** After SIGTERM or SIGINT, how long /ready answers 503 while requests are still served, before closing. */
  readonly shutdownDrainMs: number;
}

export interface ServiceParts {
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** Releases what the service holds (database handles, timers) after the last request. */
  readonly close?: () => Promise<void>;
  /** Runs once the URL is known (the port may be 0), before the service announces that it listens. */
  readonly ready?: (url: string) => void;
  /** The service's metrics, served on the metrics listener when the settings enable it. */
  readonly metrics?: Registry;
}

export interface StartedService {
  readonly server: RunningServer;
  readonly url: string;
  readonly logger: Logger;
  /** Where Prometheus scrapes this process; absent when metrics are off. */
  readonly metricsUrl: string | undefined;
}

/**
 * The start-up sequence both servers share: DATA_DIR, TLS material, the metrics listener, listen,
 * announce the URLs, stop cleanly on SIGTERM/SIGINT. Either signal first drains: /ready answers 503 (the
 * `shutdown` state handed to `build`) for SHUTDOWN_DRAIN_MS while every request is still served, so a
 * balancer takes the instance out of rotation before its connections close. Configuration must already
 * be parsed; start-up failures end the process with an operator-readable message.
 */
export async function startHttpService(options: {
  readonly service: string;
  readonly settings: ServiceSettingsWithData;
  readonly portVariable: string;
  readonly build: (logger: Logger, shutdown: ShutdownState) => Promise<ServiceParts> | ServiceParts;
}): Promise<StartedService> {
  const { settings } = options;
  const logger = createLogger(options.service, settings.logLevel);
  try {
    await prepareDataDir(settings.dataDir, logger);
    const tls = await resolveTls(settings.transport);
    const shutdown = new ShutdownState();
    const parts = await options.build(logger, shutdown);
    const scrapes =
      parts.metrics !== undefined && settings.metrics.enabled
        ? await listenForScrapes(parts.metrics, settings.metrics)
        : undefined;
    if (scrapes !== undefined) logger.info({ url: scrapes.url, port: scrapes.port }, 'metrics listening');
    const server = await listen({
      handler: parts.handler,
      host: settings.host,
      port: settings.port,
      tls,
      portVariable: options.portVariable,
      timeouts: settings.timeouts,
    });
    // Before announcing the URL: whoever waits for "listening" may signal at once.
    onShutdownSignal(logger, async (signal) => {
      shutdown.startDraining();
      // Both signals drain: SIGTERM is how an orchestrator stops an instance, SIGINT how a terminal's
      // Ctrl-C or a process manager does, and a balancer must see /ready turn 503 either way before
      // connections close. A second signal stops at once (onShutdownSignal).
      if (settings.shutdownDrainMs > 0) {
        logger.info({ signal, drainMs: settings.shutdownDrainMs }, 'draining: /ready answers 503');
        await sleep(settings.shutdownDrainMs);
      }
      await server.close();
      await scrapes?.close();
      await parts.close?.();
    });
    const url = serviceUrl(settings, server.port);
    parts.ready?.(url);
    logger.info(
      {
        url,
        port: server.port,
        transport: settings.transport.mode,
        caFile: tls?.caFile,
        metricsUrl: scrapes?.url,
      },
      'listening',
    );
    if (tls?.caFile) logger.info(`try: curl --cacert ${tls.caFile} ${url}/health`);
    return { server, url, logger, metricsUrl: scrapes?.url };
  } catch (error) {
    return exitOnStartupError(error, logger);
  }
}
