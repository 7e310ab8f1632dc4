import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// 256 bits of entropy: a slow hash adds nothing, so a keyed HMAC is enough (decisions: Identity).
const SECRET_BYTES = 32;
const HASH_PREFIX = 'hmac-sha256:';

/**
 * A new client secret: 256 random bits as base64url (43 characters). base64url has no `+`, which
 * HTTP Basic form-decodes to a space, and no padding a caller might trim.
 */
export function generateClientSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/** What the store keeps instead of the secret: HMAC-SHA-256 keyed with the server's pepper. */
export function hashClientSecret(secret: string, pepper: Uint8Array): string {
  return `${HASH_PREFIX}${createHmac('sha256', pepper).update(secret, 'utf8').digest('base64url')}`;
}

/**
 * Whether `secret` is the one `storedHash` was made from. The comparison takes the same time
 * whatever the input, so timing says nothing about how much of a guess was right.
 */
export function verifyClientSecret(secret: string, storedHash: string, pepper: Uint8Array): boolean {
  const expected = Buffer.from(storedHash, 'utf8');
  const actual = Buffer.from(hashClientSecret(secret, pepper), 'utf8');
  if (actual.length !== expected.length) {
    timingSafeEqual(actual, actual);
    return false;
  }
  return timingSafeEqual(actual, expected);
}
