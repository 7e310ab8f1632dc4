import { type AuditTrail, INTERACTION_PATH, OIDC_ROUTES } from '@catalog/identity';
import {
  healthCheck,
  type ReadinessCheck,
  type RequestContextState,
  readinessCheck,
  requestContext,
  requestMetrics,
  requireForwardedHttps,
  type ShutdownState,
  securityHeaders,
  trustedProxyHeaders,
} from '@catalog/server-runtime';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { AuthServerConfig } from './config/config.ts';
import { errorBody } from './http/error-body.ts';
import type { ConcurrencyGate } from './limits/concurrency-gate.ts';
import { signInAdmission } from './limits/sign-in-admission.ts';
import { tokenRateLimit } from './limits/token-rate-limit.ts';
import { interactionRoutes } from './login/interaction-routes.ts';
import type { AuthMetrics } from './metrics/auth-metrics.ts';
import { operationOf } from './metrics/operation-of.ts';
import { consoleOrigins } from './oidc/admin-client.ts';
import { mountProvider } from './oidc/mount-provider.ts';
import type { ProviderHolder } from './oidc/provider-holder.ts';
import { publicHost } from './oidc/public-host.ts';
import { silentAuthorizationFraming } from './oidc/silent-authorization-framing.ts';
import type { AdminAccounts } from './ports/admin-accounts.ts';
import type { LoginAttempts } from './ports/login-attempts.ts';
import type { RateLimiter } from './ports/rate-limiters.ts';
import type { SignIns } from './ports/sign-ins.ts';

export interface AuthServerDeps {
  readonly config: AuthServerConfig;
  readonly logger: Logger;
  readonly provider: ProviderHolder;
  readonly accounts: AdminAccounts;
  readonly loginAttempts: LoginAttempts;
  /** Where sign-ins, their failures and lock-outs are recorded (the shared store's audit trail). */
  readonly auditTrail: AuditTrail;
  /** Bounds the scrypt derivations of the login page in flight. */
  readonly passwordChecks: ConcurrencyGate;
  /** Where oidc-provider keeps sign-ins in progress; a password check keeps its interaction from eviction. */
  readonly signIns: SignIns;
  readonly tokenRequestsPerIp: RateLimiter;
  readonly signInRequestsPerIp: RateLimiter;
  /** Keys the login form's CSRF tokens (the same on every instance: a form shown by one is posted to another). */
  readonly csrfKey: Uint8Array;
  readonly metrics: AuthMetrics;
  /** What /ready checks (the store, the signing keys), and whether the process is stopping. */
  readonly readiness: Readonly<Record<string, ReadinessCheck>>;
  readonly shutdown: ShutdownState;
}

/** Builds the token server without listening, so tests and main.ts start it the same way. */
export function createApp(deps: AuthServerDeps): Koa<RequestContextState> {
  const { config, logger } = deps;
  // Behind the proxy the caller's address is the X-Forwarded-For entry the proxy appended (the last
  // one): earlier entries are whatever the caller sent, and the per-IP limits key on this address.
  // Only a request from one of TRUSTED_PROXIES keeps that header (trustedProxyHeaders).
  const app = new Koa<RequestContextState>({
    proxy: config.transport.mode === 'behind-proxy',
    maxIpsCount: 1,
  });
  const healthPath = `${config.basePath}/health`;
  const readyPath = `${config.basePath}/ready`;
  const { metrics } = deps;
  // Before anything reads the caller's address or protocol: only a trusted proxy's headers stay.
  if (config.transport.mode === 'behind-proxy') app.use(trustedProxyHeaders(config.transport.trustedProxies));
  // First, so that every answer is counted, the refusals of the middleware below included.
  if (metrics.enabled) app.use(requestMetrics(metrics.registry, operationOf(config.basePath)));
  app.use(requestContext(logger));
  app.use(securityHeaders());
  if (config.transport.mode === 'behind-proxy') app.use(requireForwardedHttps(healthPath, readyPath));
  // Above every route of ours, as in the catalog API: each thrown error is answered here, in one shape.
  app.use(errorBody());
  app.use(healthCheck(healthPath, 'auth-server'));
  app.use(readinessCheck(readyPath, deps.readiness, deps.shutdown));
  // Past the probes, which answer before the provider (and so the public URL) is in service.
  app.use(publicHost(deps.provider));
  app.use(
    tokenRateLimit(`${config.basePath}${OIDC_ROUTES.token}`, deps.tokenRequestsPerIp, () =>
      metrics.tokenOutcome('rate_limited'),
    ),
  );
  app.use(
    signInAdmission({
      authorizationPath: `${config.basePath}${OIDC_ROUTES.authorization}`,
      interactionPath: `${config.basePath}${INTERACTION_PATH}`,
      endSessionPath: `${config.basePath}${OIDC_ROUTES.end_session}`,
      perIp: deps.signInRequestsPerIp,
    }),
  );
  app.use(
    silentAuthorizationFraming({
      authorizationPath: `${config.basePath}${OIDC_ROUTES.authorization}`,
      consoleOrigins: consoleOrigins(config.adminConsoleRedirectUris),
    }),
  );
  app.use(
    interactionRoutes({
      basePath: config.basePath,
      holder: deps.provider,
      accounts: deps.accounts,
      attempts: deps.loginAttempts,
      passwordChecks: deps.passwordChecks,
      signIns: deps.signIns,
      csrfKey: deps.csrfKey,
      trail: deps.auditTrail,
      consoleOrigins: consoleOrigins(config.adminConsoleRedirectUris),
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
