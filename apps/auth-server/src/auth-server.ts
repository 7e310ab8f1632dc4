import { mkdir } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { engineSelection, openRecords, openSigningKeys } from '@catalog/engines';
import {
  cookieSigningKeys,
  ensureSigningKeys,
  loginCsrfKey,
  providerJwks,
  type SigningKeySet,
  StoreAuditTrail,
} from '@catalog/identity';
import { loadClientSecretPepper, ShutdownState } from '@catalog/server-runtime';
import type { Logger } from 'pino';
import { LoginLockout } from './accounts/login-lockout.ts';
import { openSharedState } from './adapters/open-shared-state.ts';
import { StoreAdminAccounts } from './adapters/store-admin-accounts.ts';
import { StoreIssuableClients } from './adapters/store-issuable-clients.ts';
import { createApp } from './app.ts';
import type { AuthServerConfig } from './config/config.ts';
import { ConcurrencyGate } from './limits/concurrency-gate.ts';
import { AuthMetrics } from './metrics/auth-metrics.ts';
import { adapterFactory } from './oidc/adapter-factory.ts';
import { type ClientSecretVerifier, pepperedSecretVerifier } from './oidc/client-secret-check.ts';
import { createProvider } from './oidc/create-provider.ts';
import { ProviderHolder } from './oidc/provider-holder.ts';

export interface AuthServer {
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** Builds the provider for the issuer URL, known once the server listens (the port may be 0). */
  start(issuer: string): void;
  close(): Promise<void>;
}

// No client has this id: the lookup reads the clients table's index and finds nothing.
const PROBE_CLIENT_ID = 'readiness-probe';

/**
 * Wires the token server: the shared store, the client-secret pepper, the signing keys (created on
 * first start, reloaded when `pnpm admin keys rotate` replaces them), the rate limits and the Koa
 * app. Rate limits, lock-outs and sign-ins in progress are kept in Redis when REDIS_URL is set
 * (every instance then sees the same), in this process otherwise; cookies and login forms are keyed
 * from the pepper, so any instance carries on a sign-in another started. `secretVerifier` lets a
 * test observe the client-secret checks. /ready passes once the store answers and the provider
 * (with the signing keys) is in service, until `shutdown` starts draining; it does not depend on
 * Redis, without which integrators' tokens are still issued.
 */
export async function buildAuthServer({
  config,
  logger,
  secretVerifier = pepperedSecretVerifier,
  metrics = new AuthMetrics({ enabled: false }),
  shutdown = new ShutdownState(),
}: {
  readonly config: AuthServerConfig;
  readonly logger: Logger;
  readonly secretVerifier?: (pepper: Uint8Array) => ClientSecretVerifier;
  readonly metrics?: AuthMetrics;
  readonly shutdown?: ShutdownState;
}): Promise<AuthServer> {
  // The records' engine (and SEARCH_ENGINE, checked though unused here) before anything is opened.
  const { records } = engineSelection(config);
  const shared = await openSharedState({ config, logger, onFallback: () => metrics.rateLimitFallback() });
  const limiterOf = metrics.meteredRateLimiters(shared.rateLimiters);
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const pepper = await loadClientSecretPepper({
    dataDir: config.dataDir,
    override: config.clientSecretPepper,
  });
  // Beside the records: DATA_DIR's key file by default, the set every instance shares on PostgreSQL.
  const signingKeys = await openSigningKeys(records, async () => pepper);
  let keys = await ensureSigningKeys(signingKeys).catch(async (error: unknown) => {
    await signingKeys.close();
    throw error;
  });
  const store = await openRecords(records);
  const clients = new StoreIssuableClients(store.clients);
  const accounts = new StoreAdminAccounts(store.adminUsers);
  const holder = new ProviderHolder();
  const { limits } = config;
  const { signIns } = shared;
  const adapter = adapterFactory({ clients, signIns });
  const perClient = limiterOf('token-client', limits.tokenPerClient);
  const verifier = secretVerifier(pepper);
  const cookieKeys = cookieSigningKeys(pepper);
  let issuer: string | undefined;

  const install = (set: SigningKeySet) => {
    if (issuer === undefined) return;
    const jwks = providerJwks(set, new Date());
    holder.install(
      createProvider({
        issuer,
        basePath: config.basePath,
        jwks,
        cookieKeys,
        adapter,
        accounts,
        adminConsoleRedirectUris: config.adminConsoleRedirectUris,
        pepper,
        secretVerifier: verifier,
        clients,
        perClient,
        logger,
        proxy: config.transport.mode === 'behind-proxy',
        onTokenOutcome: (outcome) => metrics.tokenOutcome(outcome),
      }),
    );
    logger.info(
      { signingKid: jwks[0]?.kid, publishedKids: jwks.map((key) => key.kid) },
      'signing keys loaded',
    );
  };

  const stopWatching = signingKeys.watch(keys.version, {
    onChange: () => {
      signingKeys
        .read()
        .then((stored) => {
          if (stored === undefined) throw new Error(`${signingKeys.place} was removed`);
          if (stored.version === keys.version) return;
          keys = stored;
          install(stored.set);
        })
        .catch((error: unknown) =>
          logger.error({ err: error }, 'signing keys not reloaded; the previous keys stay in service'),
        );
    },
    onError: (error) =>
      logger.error({ err: error }, 'signing keys not checked for changes; the current keys stay in service'),
  });

  const app = createApp({
    config,
    logger,
    provider: holder,
    accounts,
    auditTrail: new StoreAuditTrail(store.audit),
    loginAttempts: new LoginLockout({
      perEmail: limiterOf('login-email', limits.loginFailuresPerEmail),
      perIp: limiterOf('login-ip', limits.loginFailuresPerIp),
    }),
    passwordChecks: new ConcurrencyGate({
      concurrency: limits.passwordCheckConcurrency,
      queue: limits.passwordCheckQueue,
    }),
    signIns,
    tokenRequestsPerIp: limiterOf('token-ip', limits.tokenPerIp),
    signInRequestsPerIp: limiterOf('sign-in-ip', limits.signInPerIp),
    csrfKey: loginCsrfKey(pepper),
    metrics,
    readiness: {
      store: async () => {
        await store.clients.get(PROBE_CLIENT_ID);
        return true;
      },
      signingKeys: () => holder.installed,
    },
    shutdown,
  });
  return {
    handler: app.callback(),
    start(url) {
      issuer = url;
      install(keys.set);
    },
    async close() {
      stopWatching();
      await signingKeys.close();
      await store.close();
      await shared.close();
    },
  };
}
