import { openPostgresSigningKeySetStore, type StorageLocation } from '@catalog/store';
import { FileSigningKeyStore } from '../adapters/file-signing-keys/file-signing-key-store.ts';
import { SharedSigningKeyStore } from '../adapters/shared-signing-keys/shared-signing-key-store.ts';
import type { SigningKeyStore } from '../ports/signing-key-store.ts';
import { signingKeysFile } from './signing-key-set.ts';

/** The database for messages: where it is, never the credentials its URL may carry. */
function describeDatabase(url: string): string {
  const parsed = new URL(url);
  return `PostgreSQL ${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname} (signing_key_set)`;
}

/**
 * Where the deployment's signing keys live, chosen as its records are: the file under DATA_DIR on
 * the embedded default, the shared store on PostgreSQL, sealed with a key derived from the
 * client-secret pepper (asked for only there).
 */
export async function openSigningKeyStore(
  location: StorageLocation,
  pepper: () => Promise<Uint8Array>,
): Promise<SigningKeyStore> {
  if (location.engine === 'sqlite') return new FileSigningKeyStore(signingKeysFile(location.dataDir));
  const sealingPepper = await pepper();
  return new SharedSigningKeyStore({
    records: await openPostgresSigningKeySetStore({ url: location.url }),
    pepper: sealingPepper,
    place: describeDatabase(location.url),
  });
}
