import { createHash, randomBytes } from 'node:crypto';
import { HttpsSession, signInThroughLoginPage } from '@catalog/identity';
import { rawRequest } from '@catalog/server-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthServerConfig } from '../src/config/config.ts';
import { startServerWithAdmin } from './support/server-with-admin.ts';
import type { TestServer } from './support/test-server.ts';
import { basic, postToken } from './support/token-requests.ts';

const PASSWORD = 'correct horse battery staple';
const ADMIN = 'console-admin@example.com';
const CONSOLE_PORT = 3443;
const CONSOLE_ORIGIN = `https://localhost:${CONSOLE_PORT}`;
const CALLBACK = `${CONSOLE_ORIGIN}/console/callback`;

let server: TestServer;

beforeAll(async () => {
  // As `pnpm start` runs it: the token server reads the catalog API's port from the shared environment.
  server = await startServerWithAdmin(
    { email: ADMIN, password: PASSWORD },
    { env: { CATALOG_API_PORT: String(CONSOLE_PORT) } },
  );
});
afterAll(async () => {
  await server?.stop({ removeData: true });
});

const header = (reply: { headers: Record<string, string | string[] | undefined> }, name: string) =>
  reply.headers[name] === undefined ? undefined : String(reply.headers[name]);

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

const authorizeUrl = (redirectUri: string, challenge: string) =>
  `${server.url}/oauth2/authorize?${new URLSearchParams({
    client_id: 'catalog-admin',
    response_type: 'code',
    scope: 'openid',
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
  })}`;

/** Signs in through the login page as the console's browser does, up to the callback's code. */
async function consoleCode(redirectUri = CALLBACK) {
  const { verifier, challenge } = pkce();
  const callback = await signInThroughLoginPage({
    session: new HttpsSession({ ca: server.ca }),
    authorizationUrl: authorizeUrl(redirectUri, challenge),
    redirectUri,
    email: ADMIN,
    password: PASSWORD,
  });
  return { code: new URL(callback).searchParams.get('code') ?? '', verifier, redirectUri };
}

const codeExchange = (grant: { code: string; verifier: string; redirectUri: string }, origin: string) =>
  postToken(
    server,
    {
      grant_type: 'authorization_code',
      client_id: 'catalog-admin',
      code: grant.code,
      code_verifier: grant.verifier,
      redirect_uri: grant.redirectUri,
    },
    { Origin: origin },
  );

describe("the console's redirect URIs (issue 17)", () => {
  it('accepts https://localhost:<CATALOG_API_PORT>/console/callback with PKCE: the login page, not an error', async () => {
    for (const host of ['localhost', '127.0.0.1']) {
      const session = new HttpsSession({ ca: server.ca });
      const start = await session.send(
        'GET',
        authorizeUrl(`https://${host}:${CONSOLE_PORT}/console/callback`, pkce().challenge),
      );
      expect(start.status, host).toBe(303);
      const location = String(start.headers.location);
      expect(location, host).toContain('/interaction/');
      const page = await session.send('GET', new URL(location, server.url).href);
      expect(page.status).toBe(200);
      expect(page.body).toContain('name="password"');
    }
  });

  it('refuses an unregistered redirect URI without redirecting to it', async () => {
    const session = new HttpsSession({ ca: server.ca });
    const reply = await session.send(
      'GET',
      authorizeUrl('https://evil.example/console/callback', pkce().challenge),
    );
    expect(reply.status).toBe(400);
    expect(String(reply.headers.location ?? '')).not.toContain('evil.example');
  });

  it('lets the login form lead to the console origin (form-action), and nowhere else', async () => {
    const session = new HttpsSession({ ca: server.ca });
    const start = await session.send('GET', authorizeUrl(CALLBACK, pkce().challenge));
    const page = await session.send('GET', new URL(String(start.headers.location), server.url).href);
    const policy = String(page.headers['content-security-policy']);
    const formAction = /form-action ([^;]+)/.exec(policy)?.[1]?.split(' ');
    expect(formAction).toEqual(["'self'", CONSOLE_ORIGIN, `https://127.0.0.1:${CONSOLE_PORT}`]);
    expect(policy).not.toContain('http://127.0.0.1');
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it("lets a browser's login POST carry its Origin: the login page's referrer policy is same-origin, not no-referrer", async () => {
    // From a no-referrer page a browser sends `Origin: null` with a form POST, which the login
    // handler's same-origin check refuses: no browser could sign in (found by the console's suite).
    const session = new HttpsSession({ ca: server.ca });
    const start = await session.send('GET', authorizeUrl(CALLBACK, pkce().challenge));
    const page = await session.send('GET', new URL(String(start.headers.location), server.url).href);
    expect(page.headers['referrer-policy']).toBe('same-origin');
  });
});

describe('CORS on the token endpoint for the browser console (issue 17)', () => {
  it('answers a preflight from the console origin for POST /oauth2/token', async () => {
    const reply = await rawRequest(`${server.url}/oauth2/token`, {
      method: 'OPTIONS',
      ca: server.ca,
      headers: {
        Origin: CONSOLE_ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(reply.status).toBe(204);
    expect(header(reply, 'access-control-allow-origin')).toBe(CONSOLE_ORIGIN);
    expect(header(reply, 'access-control-allow-methods')).toContain('POST');
  });

  it("allows the admin client's code exchange from the console origin: an ID token, with Access-Control-Allow-Origin", async () => {
    const reply = await codeExchange(await consoleCode(), CONSOLE_ORIGIN);
    expect(reply.status).toBe(200);
    expect(reply.json.id_token).toBeTypeOf('string');
    expect(header(reply, 'access-control-allow-origin')).toBe(CONSOLE_ORIGIN);
  });

  it('gives a code exchange from any other origin no CORS allowance', async () => {
    for (const origin of ['https://evil.example', 'http://127.0.0.1', 'null']) {
      const reply = await codeExchange(await consoleCode(), origin);
      expect(header(reply, 'access-control-allow-origin'), origin).toBeUndefined();
      expect(reply.status, origin).toBe(400);
    }
  });

  it("gives an M2M client's token request with an Origin header no CORS allowance, even from the console origin", async () => {
    const client = await server.createClient({ scopes: ['products.read'] });
    const reply = await postToken(
      server,
      { grant_type: 'client_credentials', scope: 'crm-api/products.read' },
      { Authorization: basic(client.clientId, client.clientSecret), Origin: CONSOLE_ORIGIN },
    );
    expect(header(reply, 'access-control-allow-origin')).toBeUndefined();
    expect(reply.json.access_token).toBeUndefined();
  });

  it('answers a token request from a disallowed Origin for a known client id exactly as for an unknown one (status, body, CORS headers)', async () => {
    const client = await server.createClient({ scopes: ['products.read'] });
    const scope = 'crm-api/products.read';
    const answer = async (clientId: string, secret: string, origin: string, viaBasic: boolean) => {
      const reply = viaBasic
        ? await postToken(
            server,
            { grant_type: 'client_credentials', scope },
            { Authorization: basic(clientId, secret), Origin: origin },
          )
        : await postToken(
            server,
            { grant_type: 'client_credentials', client_id: clientId, client_secret: secret, scope },
            { Origin: origin },
          );
      const headers = Object.fromEntries(
        Object.entries(reply.headers).filter(([name]) =>
          /^(access-control-|vary$|www-authenticate$|cache-control$|content-type$)/.test(name),
        ),
      );
      return { status: reply.status, body: reply.json, headers };
    };
    for (const origin of ['https://evil.example', CONSOLE_ORIGIN, 'null']) {
      for (const viaBasic of [false, true]) {
        const unknown = await answer('NoSuchClientId0000000000000', 'any secret', origin, viaBasic);
        expect(unknown.status).toBe(400);
        expect(unknown.body).toEqual({
          error: 'invalid_client',
          error_description: 'client authentication failed',
        });
        expect(unknown.headers['access-control-allow-origin']).toBeUndefined();
        for (const secret of [client.clientSecret, 'not the secret']) {
          expect(
            await answer(client.clientId, secret, origin, viaBasic),
            `${origin} basic=${viaBasic}`,
          ).toEqual(unknown);
        }
      }
    }
  });

  it('leaves the JWKS and discovery documents readable from any origin, as before', async () => {
    for (const path of ['/.well-known/jwks.json', '/.well-known/openid-configuration']) {
      const reply = await rawRequest(`${server.url}${path}`, {
        ca: server.ca,
        headers: { Origin: 'https://elsewhere.example' },
      });
      expect(reply.status, path).toBe(200);
      expect(header(reply, 'access-control-allow-origin'), path).toBe('https://elsewhere.example');
    }
  });
});

describe('configuration of the console redirect URIs', () => {
  const uris = (env: Record<string, string>) =>
    loadAuthServerConfig({ DATA_DIR: '/tmp/unused', ...env }).adminConsoleRedirectUris;

  it('defaults to the catalog API on localhost and 127.0.0.1, port 3000, under BASE_PATH', () => {
    expect(uris({})).toEqual([
      'https://localhost:3000/console/callback',
      'https://127.0.0.1:3000/console/callback',
    ]);
    expect(uris({ CATALOG_API_PORT: '8443', BASE_PATH: '/prod' })).toEqual([
      'https://localhost:8443/prod/console/callback',
      'https://127.0.0.1:8443/prod/console/callback',
    ]);
  });

  it('uses PUBLIC_CATALOG_URL when set, then the extras of ADMIN_CONSOLE_REDIRECT_URIS', () => {
    expect(
      uris({
        PUBLIC_CATALOG_URL: 'https://catalog.example.com/prod/',
        ADMIN_CONSOLE_REDIRECT_URIS: 'https://console.example.com/callback',
      }),
    ).toEqual(['https://catalog.example.com/prod/console/callback', 'https://console.example.com/callback']);
  });

  it('refuses an invalid CATALOG_API_PORT or PUBLIC_CATALOG_URL at start-up with one line naming it', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadAuthServerConfig({ DATA_DIR: '/tmp/unused', ...env });
      } catch (error) {
        return (error as { problems: readonly string[] }).problems;
      }
      return [];
    };
    const port = problems({ CATALOG_API_PORT: '70000' });
    expect(port).toHaveLength(1);
    expect(port[0]).toMatch(/CATALOG_API_PORT/);
    const url = problems({ PUBLIC_CATALOG_URL: 'http://catalog.example.com' });
    expect(url).toHaveLength(1);
    expect(url[0]).toMatch(/PUBLIC_CATALOG_URL/);
  });
});
