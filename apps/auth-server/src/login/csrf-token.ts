import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The login form's anti-forgery token, bound to one interaction: HMAC of its uid with a key every
 * instance of the deployment shares. A forged cross-site POST lacks it (and the provider's SameSite
 * interaction cookie).
 */
export function csrfToken(key: Uint8Array, interactionUid: string): string {
  return createHmac('sha256', key).update(`login:${interactionUid}`).digest('base64url');
}

export function isValidCsrfToken(key: Uint8Array, interactionUid: string, presented: string): boolean {
  const expected = Buffer.from(csrfToken(key, interactionUid));
  const actual = Buffer.from(presented);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
