import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loadClientSecretPepper } from '@catalog/server-runtime';
import { catalogDatabasePath, openSqliteCatalogStore } from '@catalog/store';
import type { Logger } from 'pino';
import { LoginLockout } from './accounts/login-lockout.ts';
import { memoryRateLimiters } from './adapters/memory-rate-limiters.ts';
import { StoreAdminAccounts } from './adapters/store-admin-accounts.ts';
import { StoreIssuableClients } from './adapters/store-issuable-clients.ts';
import { createApp } from './app.ts';
import type { AuthServerConfig } from './config/config.ts';
import { ensureSigningKeys } from './keys/ensure-signing-keys.ts';
import { providerJwks } from './keys/published-keys.ts';
import { readSigningKeySet } from './keys/signing-key-file.ts';
import { type SigningKeySet, signingKeysFile } from './keys/signing-key-set.ts';
import { watchSigningKeys } from './keys/watch-signing-keys.ts';
import { ConcurrencyGate } from './limits/concurrency-gate.ts';
import { adapterFactory } from './oidc/adapter-factory.ts';
import { type ClientSecretVerifier, pepperedSecretVerifier } from './oidc/client-secret-check.ts';
import { createProvider } from './oidc/create-provider.ts';
import { ProviderHolder } from './oidc/provider-holder.ts';
import { SignInStore } from './oidc/sign-in-store.ts';
import type { RateLimiterFactory } from './ports/rate-limiters.ts';

export interface AuthServer {
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** Builds the provider for the issuer URL, known once the server listens (the port may be 0). */
  start(issuer: string): void;
  close(): Promise<void>;
}

/**
 * Wires the token server: the shared store, the client-secret pepper, the signing keys (created on
 * first start, reloaded when `pnpm admin keys rotate` replaces them), the rate limits and the Koa
 * app. Rate limits are counted in this process unless `rateLimiters` says otherwise;
 * `secretVerifier` lets a test observe the client-secret checks.
 */
export async function buildAuthServer({
  config,
  logger,
  rateLimiters = memoryRateLimiters,
  secretVerifier = pepperedSecretVerifier,
}: {
  readonly config: AuthServerConfig;
  readonly logger: Logger;
  readonly rateLimiters?: RateLimiterFactory;
  readonly secretVerifier?: (pepper: Uint8Array) => ClientSecretVerifier;
}): Promise<AuthServer> {
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const pepper = await loadClientSecretPepper({
    dataDir: config.dataDir,
    override: config.clientSecretPepper,
  });
  let keys = await ensureSigningKeys(config.dataDir);
  const store = openSqliteCatalogStore({ databasePath: catalogDatabasePath(config.dataDir) });
  const clients = new StoreIssuableClients(store.clients);
  const accounts = new StoreAdminAccounts(store.adminUsers);
  const holder = new ProviderHolder();
  const { limits } = config;
  const signIns = new SignInStore({ capacity: limits.signInCapacity });
  const adapter = adapterFactory({
    clients,
    perClient: rateLimiters('token-client', limits.tokenPerClient),
    signIns,
  });
  const verifier = secretVerifier(pepper);
  const cookieKeys = [randomBytes(32).toString('base64url')];
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
        logger,
        proxy: config.transport.mode === 'behind-proxy',
      }),
    );
    logger.info(
      { signingKid: jwks[0]?.kid, publishedKids: jwks.map((key) => key.kid) },
      'signing keys loaded',
    );
  };

  const keyFile = signingKeysFile(config.dataDir);
  const stopWatching = watchSigningKeys(keyFile, () => {
    readSigningKeySet(keyFile)
      .then((set) => {
        if (set === undefined) throw new Error(`${keyFile} was removed`);
        keys = set;
        install(set);
      })
      .catch((error: unknown) =>
        logger.error({ err: error }, 'signing keys not reloaded; the previous keys stay in service'),
      );
  });

  const app = createApp({
    config,
    logger,
    provider: holder,
    accounts,
    loginAttempts: new LoginLockout({
      perEmail: rateLimiters('login-email', limits.loginFailuresPerEmail),
      perIp: rateLimiters('login-ip', limits.loginFailuresPerIp),
    }),
    passwordChecks: new ConcurrencyGate({
      concurrency: limits.passwordCheckConcurrency,
      queue: limits.passwordCheckQueue,
    }),
    signIns,
    tokenRequestsPerIp: rateLimiters('token-ip', limits.tokenPerIp),
    signInRequestsPerIp: rateLimiters('sign-in-ip', limits.signInPerIp),
    csrfKey: randomBytes(32),
  });
  return {
    handler: app.callback(),
    start(url) {
      issuer = url;
      install(keys);
    },
    async close() {
      stopWatching();
      await store.close();
    },
  };
}
