import { SignInError } from '@catalog/contracts';
import {
  createAdminUser,
  disableAdminUser,
  HttpsSession,
  obtainAdminIdToken,
  signInThroughLoginPage,
} from '@catalog/identity';
import { rawRequest } from '@catalog/server-runtime/testing';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchTrusting } from './support/https-fetch.ts';
import { adminAuthorizeUrl } from './support/login-form.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { postToken } from './support/token-requests.ts';

const PASSWORD = 'correct horse battery staple';
const ADMIN = 'admin@example.com';
const EDITOR = 'editor@example.com';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  const users = server.store.adminUsers;
  await createAdminUser({ users, email: ADMIN, password: PASSWORD, groups: ['admin'] });
  await createAdminUser({ users, email: EDITOR, password: PASSWORD, groups: ['editors'] });
});
afterAll(async () => {
  await server?.stop({ removeData: true });
});

async function verifyIdToken(token: string) {
  const jwks = JSON.parse((await rawRequest(`${server.url}/.well-known/jwks.json`, { ca: server.ca })).body);
  return jwtVerify(token, createLocalJWKSet(jwks), {
    issuer: server.url,
    audience: 'catalog-admin',
    algorithms: ['ES256'],
  });
}

/** The authorization-code + PKCE flow driven by openid-client, with the login page filled in as a browser would. */
async function signInWithOpenidClient(email: string, password: string) {
  const config = await oidc.discovery(new URL(server.url), 'catalog-admin', undefined, oidc.None(), {
    [oidc.customFetch]: fetchTrusting(server.ca),
  } as oidc.DiscoveryRequestOptions);
  config[oidc.customFetch] = fetchTrusting(server.ca) as oidc.CustomFetch;
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const redirectUri = 'http://127.0.0.1/callback';
  const authorizationUrl = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const callback = await signInThroughLoginPage({
    session: new HttpsSession({ ca: server.ca }),
    authorizationUrl: authorizationUrl.href,
    redirectUri,
    email,
    password,
  });
  return oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
  });
}

/** Opens the login page of a fresh authorization request and returns the session and the page. */
async function openLoginPage() {
  const session = new HttpsSession({ ca: server.ca });
  const start = await session.send('GET', adminAuthorizeUrl(server.url));
  const pageUrl = new URL(String(start.headers.location), server.url).href;
  const page = await session.send('GET', pageUrl);
  const action = /action="([^"]+)"/.exec(page.body)?.[1] ?? '';
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  return { session, page, actionUrl: new URL(action, server.url).href, csrf };
}

describe('administrator sign-in: authorization code + PKCE with our login page', () => {
  it('gives an admin an ES256 ID token for the admin client carrying groups, through openid-client', async () => {
    const tokens = await signInWithOpenidClient(ADMIN, PASSWORD);
    const idToken = tokens.id_token ?? '';
    const { payload, protectedHeader } = await verifyIdToken(idToken);
    expect(protectedHeader.alg).toBe('ES256');
    expect(protectedHeader.typ).toBeUndefined(); // not at+jwt: the API tells the two kinds apart by this
    expect(payload).toMatchObject({ aud: 'catalog-admin', email: ADMIN, groups: ['admin'] });
    expect(tokens.claims()?.groups).toEqual(['admin']);
  });

  it('gives a user without the admin group an ID token whose groups lack admin', async () => {
    const tokens = await signInWithOpenidClient(EDITOR, PASSWORD);
    const { payload } = await verifyIdToken(tokens.id_token ?? '');
    expect(payload.groups).toEqual(['editors']);
  });

  it('obtains the same kind of ID token through the CLI flow (obtainAdminIdToken)', async () => {
    const idToken = await obtainAdminIdToken({
      authUrl: server.url,
      ca: server.ca,
      email: ADMIN,
      password: PASSWORD,
    });
    const { payload } = await verifyIdToken(idToken);
    expect(payload).toMatchObject({ aud: 'catalog-admin', groups: ['admin'], iss: server.url });
  });

  it('refuses a wrong password with a generic message and no code', async () => {
    await expect(
      obtainAdminIdToken({ authUrl: server.url, ca: server.ca, email: ADMIN, password: 'wrong password!' }),
    ).rejects.toMatchObject({ reason: 'invalid-credentials' });
  });

  it('shows the same message for an unknown email as for a wrong password', async () => {
    const bodies: string[] = [];
    for (const email of ['nobody@example.com', EDITOR]) {
      const { session, actionUrl, csrf } = await openLoginPage();
      const reply = await session.send(
        'POST',
        actionUrl,
        new URLSearchParams({ csrf, email, password: 'not the password' }),
      );
      expect(reply.status).toBe(401);
      bodies.push(reply.body.replace(/value="[^"]*"/g, 'value=""').replace(/action="[^"]*"/, ''));
    }
    expect(bodies[0]).toContain('Invalid email or password.');
    expect(bodies[0]).toBe(bodies[1]);
  });

  it('locks an email out after 5 failed attempts, even with the right password afterwards', async () => {
    const email = 'locked@example.com';
    await createAdminUser({ users: server.store.adminUsers, email, password: PASSWORD, groups: ['admin'] });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await expect(
        obtainAdminIdToken({ authUrl: server.url, ca: server.ca, email, password: 'bad password 123' }),
      ).rejects.toMatchObject({ reason: 'invalid-credentials' });
    }
    await expect(
      obtainAdminIdToken({ authUrl: server.url, ca: server.ca, email, password: PASSWORD }),
    ).rejects.toMatchObject({ reason: 'locked' });
  });

  it('refuses a disabled administrator', async () => {
    const email = 'leaver@example.com';
    await createAdminUser({ users: server.store.adminUsers, email, password: PASSWORD, groups: ['admin'] });
    await disableAdminUser({ users: server.store.adminUsers, email });
    await expect(
      obtainAdminIdToken({ authUrl: server.url, ca: server.ca, email, password: PASSWORD }),
    ).rejects.toBeInstanceOf(SignInError);
  });

  it('refuses a login post without the CSRF token, or from a foreign origin (CSRF)', async () => {
    const missing = await openLoginPage();
    const noToken = await missing.session.send(
      'POST',
      missing.actionUrl,
      new URLSearchParams({ email: ADMIN, password: PASSWORD }),
    );
    expect(noToken.status).toBe(403);

    const foreign = await openLoginPage();
    const reply = await rawRequest(foreign.actionUrl, {
      method: 'POST',
      ca: server.ca,
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: 'https://evil.example',
      },
      body: new URLSearchParams({ csrf: foreign.csrf, email: ADMIN, password: PASSWORD }).toString(),
    });
    expect(reply.status).toBe(403);
  });

  it('serves the login page as plain HTML that cannot be framed and runs no script', async () => {
    const { page } = await openLoginPage();
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.body).not.toContain('<script');
  });

  it('refuses an authorization request without PKCE', async () => {
    const session = new HttpsSession({ ca: server.ca });
    const params = new URLSearchParams({
      client_id: 'catalog-admin',
      response_type: 'code',
      scope: 'openid',
      redirect_uri: 'http://127.0.0.1/callback',
    });
    const reply = await session.send('GET', `${server.url}/oauth2/authorize?${params}`);
    const location = new URL(String(reply.headers.location));
    expect(location.searchParams.get('error')).toBe('invalid_request');
  });

  it('refuses an ID token presented as a client secret, and as a Bearer credential (invalid_client)', async () => {
    const idToken = await obtainAdminIdToken({
      authUrl: server.url,
      ca: server.ca,
      email: ADMIN,
      password: PASSWORD,
    });
    expect(decodeProtectedHeader(idToken).typ).toBeUndefined();
    const m2m = await server.createClient();
    const asSecret = await postToken(server, {
      grant_type: 'client_credentials',
      client_id: m2m.clientId,
      client_secret: idToken,
      scope: 'crm-api/products.read',
    });
    expect(asSecret.status).toBe(400);
    expect(asSecret.json).toEqual({
      error: 'invalid_client',
      error_description: 'client authentication failed',
    });
    const asBearer = await postToken(
      server,
      { grant_type: 'client_credentials', scope: 'crm-api/products.read' },
      { Authorization: `Bearer ${idToken}` },
    );
    expect(asBearer.status).toBe(400);
    expect(asBearer.json).toEqual({
      error: 'invalid_client',
      error_description: 'client authentication failed',
    });
  });

  it('works the same under a BASE_PATH stage prefix (login page, cookies, code exchange)', async () => {
    const staged = await startTestServer({ basePath: '/prod' });
    try {
      await createAdminUser({
        users: staged.store.adminUsers,
        email: ADMIN,
        password: PASSWORD,
        groups: ['admin'],
      });
      const idToken = await obtainAdminIdToken({
        authUrl: staged.url,
        ca: staged.ca,
        email: ADMIN,
        password: PASSWORD,
      });
      const jwks = JSON.parse(
        (await rawRequest(`${staged.url}/.well-known/jwks.json`, { ca: staged.ca })).body,
      );
      const { payload } = await jwtVerify(idToken, createLocalJWKSet(jwks), {
        issuer: staged.url,
        audience: 'catalog-admin',
      });
      expect(payload.groups).toEqual(['admin']);
    } finally {
      await staged.stop({ removeData: true });
    }
  });
});
