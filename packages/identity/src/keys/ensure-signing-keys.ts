import type { SigningKeyStore, StoredSigningKeySet } from '../ports/signing-key-store.ts';
import { generateSigningKey } from './generate-signing-key.ts';

/**
 * The deployment's key set, generated on the first start of any instance (one active ES256 key);
 * instances starting together all leave with the one set that was stored.
 */
export async function ensureSigningKeys(
  keys: SigningKeyStore,
  now = new Date(),
): Promise<StoredSigningKeySet> {
  const existing = await keys.read();
  if (existing !== undefined) return existing;
  return keys.createOnce({ format: 1, keys: [await generateSigningKey('active', now)] });
}
