import { generateClientSecret, hashClientSecret, verifyClientSecret } from '@catalog/server-runtime';
import type { Middleware } from 'koa';
import Provider from 'oidc-provider';
import { basicCredentials } from './basic-credentials.ts';

/** Checks a presented client secret against a stored hash: one HMAC and one constant-time compare. */
export interface ClientSecretVerifier {
  verify(presented: string, storedHash: string): boolean;
}

export const pepperedSecretVerifier = (pepper: Uint8Array): ClientSecretVerifier => ({
  verify: (presented, storedHash) => verifyClientSecret(presented, storedHash, pepper),
});

interface OidcParams {
  oidc?: { params?: { client_secret?: unknown } };
}

function presentedSecret(ctx: Parameters<Middleware>[0]): string | undefined {
  const posted = (ctx as unknown as OidcParams).oidc?.params?.client_secret;
  if (typeof posted === 'string') return posted;
  // Undecoded: only its length matters for the decoy check.
  return basicCredentials(ctx.get('Authorization'))?.secret;
}

/**
 * Makes every token request that presents a secret cost one secret check, whatever the client's
 * state. oidc-provider checks the secret only for a client it found; for an unknown, revoked or
 * expired client it fails at the lookup, which answered measurably faster and told them apart.
 * `compare` is the provider's compareClientSecret and marks the request; the middleware, once the
 * provider has answered, checks the presented secret against a decoy hash when nothing was compared.
 */
export function clientSecretCheck(input: {
  readonly tokenPath: string;
  readonly verifier: ClientSecretVerifier;
  readonly pepper: Uint8Array;
}): { compare(presented: string, storedHash: string): boolean; equalWork: Middleware } {
  const { verifier, tokenPath } = input;
  const decoyHash = hashClientSecret(generateClientSecret(), input.pepper);
  const compared = new WeakSet<object>();
  return {
    compare(presented, storedHash) {
      const ctx = Provider.ctx;
      if (ctx !== undefined) compared.add(ctx);
      return verifier.verify(presented, storedHash);
    },
    async equalWork(ctx, next) {
      await next();
      if (ctx.path !== tokenPath || ctx.status === 429 || compared.has(ctx)) return;
      const presented = presentedSecret(ctx);
      if (presented !== undefined) verifier.verify(presented, decoyHash);
    },
  };
}
