import { createCipheriv, createDecipheriv, type KeyObject, randomBytes } from 'node:crypto';
import type { SigningKeySet } from '../../keys/signing-key-set.ts';
import { KEY_SET_SEALING } from '../../secrets/pepper-derived-keys.ts';

const FORMAT = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Binds the ciphertext to its purpose and to the version it is stored at: a sealed set copied into
 * another version (an old set put back in place of the current one) or into another use of the
 * same key does not open.
 */
const associatedData = (version: number) => Buffer.from(`${KEY_SET_SEALING}\nversion ${version}`, 'utf8');

/** AES-256-GCM with a random 96-bit nonce: format byte, nonce, tag, ciphertext. */
export function sealKeySet(set: SigningKeySet, key: KeyObject, version: number): Uint8Array {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(version));
  const body = Buffer.concat([cipher.update(JSON.stringify(set), 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.of(FORMAT), iv, cipher.getAuthTag(), body]);
}

/**
 * The JSON text of a sealed set, or undefined when it does not open: another pepper, another
 * version, or bytes altered.
 */
export function openSealedKeySet(sealed: Uint8Array, key: KeyObject, version: number): string | undefined {
  const bytes = Buffer.from(sealed);
  if (bytes.length < 1 + IV_BYTES + TAG_BYTES || bytes[0] !== FORMAT) return undefined;
  const iv = bytes.subarray(1, 1 + IV_BYTES);
  const tag = bytes.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(associatedData(version));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([
      decipher.update(bytes.subarray(1 + IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    return undefined;
  }
}
