export * from './client-secrets/index.ts';
export {
  booleanFlag,
  type CommonServerEnv,
  commonServerEnv,
  databaseUrl,
  httpsUrl,
  portSchema,
  type TransportConfig,
  transportFrom,
} from './config/common-env.ts';
export { ConfigError, parseEnv } from './config/parse-env.ts';
export { secretVariable } from './config/secret-variable.ts';
export {
  loadServiceSettings,
  type ServiceSettingsWithData,
  type ServiceVariables,
} from './config/service-settings.ts';
export { prepareDataDir } from './data-dir/prepare-data-dir.ts';
export { type ConnectionTimeouts, DEFAULT_CONNECTION_TIMEOUTS } from './http/connection-timeouts.ts';
export { ListenError, type ListenOptions, listen, type RunningServer } from './http/listen.ts';
export { serviceUrl } from './http/service-url.ts';
export { onShutdownSignal } from './http/shutdown.ts';
export { DEFAULT_TRUSTED_PROXIES, proxyAddressProblem, trustedPeers } from './http/trusted-proxies.ts';
export { healthCheck } from './koa/health.ts';
export {
  type ReadinessBody,
  type ReadinessCheck,
  readiness,
  readinessCheck,
  ShutdownState,
} from './koa/readiness.ts';
export { type RequestContextState, requestContext } from './koa/request-context.ts';
export { requireForwardedHttps } from './koa/require-forwarded-https.ts';
export { securityHeaders } from './koa/security-headers.ts';
export { trustedProxyHeaders } from './koa/trusted-proxy-headers.ts';
export { createLogger } from './logging/logger.ts';
export * from './metrics/index.ts';
export { connectRedis, RedisCommandTimeoutError } from './redis/connect-redis.ts';
export { RedisOutage, type RedisOutageMessages } from './redis/redis-outage.ts';
export { DataDirSecretError } from './secrets/data-dir-secret.ts';
export { loadSyncTokenSecret, syncTokenSecretEnv, syncTokenSecretFile } from './secrets/sync-token-secret.ts';
export {
  type ServiceParts,
  type ServiceSettings,
  type StartedService,
  startHttpService,
} from './start-http-service.ts';
export { exitOnStartupError } from './startup.ts';
export { ensureLocalTls, localCaFiles, type TlsMaterial } from './tls/local-ca.ts';
export { resolveTls } from './tls/resolve-tls.ts';
export {
  continueTrace,
  formatTraceparent,
  newSpanId,
  newTraceId,
  parseTraceparent,
  startTrace,
  type TraceContext,
  type TraceParent,
  traceHeaders,
  validTracestate,
} from './tracing/trace-context.ts';
