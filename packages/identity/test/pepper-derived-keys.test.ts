import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cookieSigningKeys, loginCsrfKey } from '../src/secrets/pepper-derived-keys.ts';

describe('keys derived from the client-secret pepper (HKDF-SHA256, one label per purpose)', () => {
  it('gives every instance and every restart of a deployment the same keys', () => {
    const pepper = randomBytes(32);
    expect(cookieSigningKeys(Buffer.from(pepper))).toEqual(cookieSigningKeys(pepper));
    expect(loginCsrfKey(Buffer.from(pepper))).toEqual(loginCsrfKey(pepper));
    expect(Buffer.from(cookieSigningKeys(pepper)[0] ?? '', 'base64url')).toHaveLength(32);
  });

  it('gives each purpose and each deployment its own key, none of them the pepper', () => {
    const pepper = randomBytes(32);
    const cookie = Buffer.from(cookieSigningKeys(pepper)[0] ?? '', 'base64url');
    const csrf = Buffer.from(loginCsrfKey(pepper));
    expect(cookie.equals(csrf)).toBe(false);
    expect(cookie.equals(pepper)).toBe(false);
    expect(csrf.equals(pepper)).toBe(false);
    expect(cookieSigningKeys(randomBytes(32))).not.toEqual(cookieSigningKeys(pepper));
  });
});
