import { describe, expect, it } from 'vitest';
import {
  decodeIdTokenPayload,
  IdTokenFormatError,
  isAdmin,
  isExpired,
  msUntilExpiry,
} from '../src/auth/id-token.ts';

function jwt(payload: unknown): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'ES256', typ: 'JWT' })}.${part(payload)}.c2lnbmF0dXJl`;
}

describe('decodeIdTokenPayload', () => {
  it('reads sub, email, groups, exp, iat and nonce', () => {
    const claims = decodeIdTokenPayload(
      jwt({
        sub: 'u1',
        email: 'ops@example.com',
        groups: ['admin'],
        exp: 1_800_000_000,
        iat: 1_799_996_400,
        nonce: 'n-1',
      }),
    );
    expect(claims).toEqual({
      sub: 'u1',
      email: 'ops@example.com',
      groups: ['admin'],
      exp: 1_800_000_000,
      iat: 1_799_996_400,
      nonce: 'n-1',
    });
    expect(isAdmin(claims)).toBe(true);
  });

  it('decodes UTF-8 and base64url characters', () => {
    const claims = decodeIdTokenPayload(jwt({ sub: 'u?>', email: 'zoë@exämple.com', exp: 1, groups: [] }));
    expect(claims.email).toBe('zoë@exämple.com');
    expect(claims.nonce).toBeNull();
    expect(isAdmin(claims)).toBe(false);
  });

  it('tolerates missing groups and email', () => {
    const claims = decodeIdTokenPayload(jwt({ sub: 'u2', exp: 5 }));
    expect(claims.groups).toEqual([]);
    expect(claims.email).toBe('u2');
  });

  it('refuses what is not a JWT with sub and exp', () => {
    expect(() => decodeIdTokenPayload('abc')).toThrow(IdTokenFormatError);
    expect(() => decodeIdTokenPayload('a.!!!.c')).toThrow(IdTokenFormatError);
    expect(() => decodeIdTokenPayload(jwt({ exp: 5 }))).toThrow(IdTokenFormatError);
    expect(() => decodeIdTokenPayload(jwt({ sub: 'x' }))).toThrow(IdTokenFormatError);
    expect(() => decodeIdTokenPayload(jwt([1, 2]))).toThrow(IdTokenFormatError);
  });

  it('expiry is compared with exp in seconds', () => {
    const claims = decodeIdTokenPayload(jwt({ sub: 'u', exp: 1000 }));
    expect(msUntilExpiry(claims, 999_000)).toBe(1000);
    expect(isExpired(claims, 999_999)).toBe(false);
    expect(isExpired(claims, 1_000_000)).toBe(true);
  });
});
