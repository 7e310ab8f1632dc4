import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidTokenError } from '../src/auth/token-errors.ts';
import { createTokenVerifier } from '../src/auth/token-verifier.ts';
import { type Stack, startStack } from './support/stack.ts';

// The API remembers tokens it verified (an ES256 verification is most of the authenticated path's
// cost); these rules say what the memory may never change: spec 5's expiry and signature checks.

let stack: Stack;
let token: string;

beforeAll(async () => {
  stack = await startStack({ demoProducts: 1 });
  ({ token } = await stack.m2mToken(['products.read']));
});
afterAll(async () => {
  await stack?.stop();
});

const expiryOf = (jwt: string) =>
  (JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString()) as { exp: number }).exp *
  1000;

describe('verified-token memory of the API’s token verifier', () => {
  const verifierAt = (clock: { now: number }) =>
    createTokenVerifier(
      {
        issuer: stack.auth.url,
        jwksUrl: `${stack.auth.url}/.well-known/jwks.json`,
        caFile: join(stack.dataDir, 'tls', 'ca.pem'),
        tokenEndpoint: `${stack.auth.url}/oauth2/token`,
      },
      () => clock.now,
    );

  it('a token accepted once is refused (401) from the second after its exp, although it was remembered', async () => {
    const clock = { now: Date.now() };
    const verifier = verifierAt(clock);
    expect(await verifier.verify(token)).toMatchObject({ kind: 'm2m', scopes: new Set(['products.read']) });
    expect(await verifier.verify(token)).toMatchObject({ kind: 'm2m' });
    clock.now = expiryOf(token);
    await expect(verifier.verify(token)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('a copy of a remembered token with one signature character changed is refused: only the exact signed bytes match', async () => {
    const verifier = verifierAt({ now: Date.now() });
    await verifier.verify(token);
    const at = token.length - 10;
    const forged = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    await expect(verifier.verify(forged)).rejects.toBeInstanceOf(InvalidTokenError);
    // Refusals are not remembered either way: the genuine token still passes, the forged one still fails.
    expect(await verifier.verify(token)).toMatchObject({ kind: 'm2m' });
    await expect(verifier.verify(forged)).rejects.toBeInstanceOf(InvalidTokenError);
  });
});
