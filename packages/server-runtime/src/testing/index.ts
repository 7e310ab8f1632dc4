// Helpers that start and call the real servers, for tests and benchmarks; not used at run time.

export { type LogLine, logLines, waitForLogLine } from './log-lines.ts';
export { RedisFaultProxy } from './redis-fault-proxy.ts';
export { requestAccessToken } from './request-access-token.ts';
export {
  type MetricFamily,
  type MetricSample,
  MetricsScrape,
  scrapeMetrics,
} from './scrape-metrics.ts';
export { type SlowClients, slowClients } from './slow-clients.ts';
export { type ServerPair, spawnServerPair } from './spawn-server-pair.ts';
export {
  type ExitResult,
  type RawReply,
  rawRequest,
  runEntry,
  runToExit,
  type SpawnedService,
  spawnService,
} from './spawn-service.ts';
