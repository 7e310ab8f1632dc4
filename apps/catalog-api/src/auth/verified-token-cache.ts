import { LRUCache } from 'lru-cache';
import type { Principal } from './principal.ts';

/**
 * Principals of tokens whose signature and claims were verified, keyed by the whole token string.
 * An integrator sends the same token on every call for its lifetime, and an ES256 verification
 * costs more than the rest of the authenticated path together; the key being the exact signed
 * bytes, a hit can only be the token verified before. An entry lives until the token's `exp`, and
 * no longer than the key set's own cache lifetime (a key withdrawn from the JWKS stops being
 * honoured as late as it would without this cache). What is refused is never cached: a wrong
 * token always pays the verification.
 */
export interface VerifiedTokenCache {
  get(token: string, nowMs: number): Principal | undefined;
  remember(token: string, principal: Principal, expiresAtMs: number, nowMs: number): void;
}

interface Entry {
  principal: Principal;
  validUntilMs: number;
}

export function createVerifiedTokenCache(options: {
  maxEntries: number;
  maxAgeMs: number;
}): VerifiedTokenCache {
  const entries = new LRUCache<string, Entry>({ max: options.maxEntries });
  return {
    get(token, nowMs) {
      const entry = entries.get(token);
      if (entry === undefined) return undefined;
      if (nowMs >= entry.validUntilMs) {
        entries.delete(token);
        return undefined;
      }
      return entry.principal;
    },
    remember(token, principal, expiresAtMs, nowMs) {
      const validUntilMs = Math.min(expiresAtMs, nowMs + options.maxAgeMs);
      if (validUntilMs > nowMs) entries.set(token, { principal, validUntilMs });
    },
  };
}
