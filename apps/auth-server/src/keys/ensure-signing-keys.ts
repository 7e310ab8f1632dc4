import { generateSigningKey } from './generate-signing-key.ts';
import { createSigningKeySetOnce, readSigningKeySet } from './signing-key-file.ts';
import { type SigningKeySet, signingKeysFile } from './signing-key-set.ts';

/** The key set under DATA_DIR, generated on first start (one active ES256 key, file mode 0600). */
export async function ensureSigningKeys(dataDir: string, now = new Date()): Promise<SigningKeySet> {
  const file = signingKeysFile(dataDir);
  const existing = await readSigningKeySet(file);
  if (existing !== undefined) return existing;
  return createSigningKeySetOnce(file, { format: 1, keys: [await generateSigningKey('active', now)] });
}
