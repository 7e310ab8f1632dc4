import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base64UrlEncode, codeChallengeS256, createPkcePair, randomBase64Url } from '../src/auth/pkce.ts';

describe('PKCE', () => {
  it('matches the RFC 7636 appendix B example', async () => {
    expect(await codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('the challenge is base64url(sha256(verifier)) for a random verifier', async () => {
    const { verifier, challenge } = await createPkcePair();
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(challenge).toBe(createHash('sha256').update(verifier).digest('base64url'));
  });

  it('encodes base64url without padding', () => {
    expect(base64UrlEncode(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
    expect(base64UrlEncode(new Uint8Array([]))).toBe('');
  });

  it('random values differ and have the asked length', () => {
    expect(randomBase64Url(16)).toHaveLength(22);
    expect(randomBase64Url()).not.toBe(randomBase64Url());
  });
});
