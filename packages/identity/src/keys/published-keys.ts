import { RETIRED_KEY_RETENTION_SECONDS } from './key-retention.ts';
import type { PrivateEcJwk, SigningKey, SigningKeySet } from './signing-key-set.ts';

export interface ProviderJwk extends PrivateEcJwk {
  readonly kid: string;
  readonly alg: 'ES256';
  readonly use: 'sig';
}

const ORDER: Record<SigningKey['status'], number> = { active: 0, staged: 1, retired: 2 };

/** Whether a retired key has outlived every token it signed plus the JWKS cache time. */
export function isPastRetention(key: SigningKey, now: Date): boolean {
  if (key.status !== 'retired' || key.retiredAt === undefined) return false;
  return now.getTime() - Date.parse(key.retiredAt) > RETIRED_KEY_RETENTION_SECONDS * 1000;
}

/**
 * The keys the provider loads, in the order it needs: oidc-provider signs with the first ES256 key,
 * so the active key comes first; staged and retired keys follow and are only published.
 */
export function providerJwks(set: SigningKeySet, now: Date): ProviderJwk[] {
  return set.keys
    .filter((key) => !isPastRetention(key, now))
    .sort((a, b) => ORDER[a.status] - ORDER[b.status])
    .map((key) => ({ ...key.privateJwk, kid: key.kid, alg: 'ES256', use: 'sig' }));
}
