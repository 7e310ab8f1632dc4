import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignInError } from '@catalog/contracts/sign-in-error';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { beginSignIn, completeSignIn } from '../src/auth/sign-in.ts';
import type { ConsoleConfig } from '../src/config.ts';

// The console's half of the sign-in, in Node: the browser's sessionStorage, location and base URI
// are stood in for by the few lines below; the token endpoint is a real HTTP server on loopback
// whose ID token carries whatever nonce the test gives it.

const BASE = 'https://catalog.test/console/';

function jwt(payload: unknown): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'ES256', typ: 'JWT' })}.${part(payload)}.c2lnbmF0dXJl`;
}

class MemoryStorage {
  readonly #items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.#items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.#items.set(key, value);
  }
  removeItem(key: string): void {
    this.#items.delete(key);
  }
}

let server: Server;
let config: ConsoleConfig;
/** The nonce the token endpoint puts in its next ID token; none when undefined. */
let issuedNonce: string | undefined;
let tokenRequests = 0;
let redirectedTo = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    tokenRequests += 1;
    request.resume();
    response.setHeader('Content-Type', 'application/json');
    response.end(
      JSON.stringify({
        token_type: 'Bearer',
        id_token: jwt({
          sub: 'u1',
          email: 'ops@example.com',
          groups: ['admin'],
          exp: 4_000_000_000,
          ...(issuedNonce === undefined ? {} : { nonce: issuedNonce }),
        }),
      }),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  config = {
    issuer: 'https://auth.test',
    clientId: 'catalog-admin',
    tokenEndpoint: `http://127.0.0.1:${port}/oauth2/token`,
    authorizationEndpoint: 'https://auth.test/oauth2/authorize',
    endSessionEndpoint: 'https://auth.test/oauth2/logout',
    apiBaseUrl: 'https://catalog.test',
    basePath: '/console',
    localCaFile: null,
  };
});
afterAll(async () => {
  server.close();
  await once(server, 'close');
});

beforeEach(() => {
  tokenRequests = 0;
  vi.stubGlobal('sessionStorage', new MemoryStorage());
  vi.stubGlobal('document', { baseURI: BASE });
  vi.stubGlobal('location', {
    assign: (url: string) => {
      redirectedTo = url;
    },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** Starts a sign-in as the console does; the state and nonce it sent to the token server. */
async function begin(): Promise<{ state: string; nonce: string }> {
  await beginSignIn(config, { returnTo: '/clients', promptLogin: false });
  const sent = new URL(redirectedTo).searchParams;
  return { state: sent.get('state') ?? '', nonce: sent.get('nonce') ?? '' };
}

const callback = (query: Record<string, string>) => new URL(`callback?${new URLSearchParams(query)}`, BASE);

describe('the console accepts only the answer to the sign-in its tab started', () => {
  it('refuses a callback whose state is not the one it sent, without exchanging the code, and keeps no sign-in pending', async () => {
    const { state } = await begin();
    const refused = await completeSignIn(config, callback({ code: 'c1', state: `${state}x` })).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SignInError);
    expect((refused as Error).message).toMatch(/did not match this tab/);
    expect(tokenRequests).toBe(0);
    // The pending sign-in was used up: the right state afterwards does not complete it either.
    await expect(completeSignIn(config, callback({ code: 'c1', state }))).rejects.toThrow(
      /No sign-in was in progress/,
    );
    expect(tokenRequests).toBe(0);
  });

  it('refuses a callback without a state', async () => {
    await begin();
    await expect(completeSignIn(config, callback({ code: 'c1' }))).rejects.toThrow(/did not match this tab/);
    expect(tokenRequests).toBe(0);
  });

  it('refuses an ID token whose nonce is not the one it sent', async () => {
    const { state, nonce } = await begin();
    issuedNonce = `${nonce}x`;
    const refused = await completeSignIn(config, callback({ code: 'c1', state })).catch(
      (error: unknown) => error,
    );
    expect(tokenRequests).toBe(1);
    expect(refused).toBeInstanceOf(SignInError);
    expect((refused as Error).message).toMatch(/not issued for this sign-in/);
  });

  it('refuses an ID token without a nonce', async () => {
    const { state } = await begin();
    issuedNonce = undefined;
    await expect(completeSignIn(config, callback({ code: 'c1', state }))).rejects.toThrow(
      /not issued for this sign-in/,
    );
  });

  it('completes when the state and the nonce are the ones it sent', async () => {
    const { state, nonce } = await begin();
    issuedNonce = nonce;
    const completed = await completeSignIn(config, callback({ code: 'c1', state }));
    expect(completed.claims).toMatchObject({ email: 'ops@example.com', nonce });
    expect(completed.returnTo).toBe('/clients');
  });
});
