import { createHash, randomBytes } from 'node:crypto';
import { HttpsSession, signInThroughLoginPage } from '@catalog/identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerWithAdmin } from './support/server-with-admin.ts';
import type { TestServer } from './support/test-server.ts';
import { postToken } from './support/token-requests.ts';

// The console's session at the token server (issue 30): silent renewal with prompt=none in a hidden
// frame, and RP-initiated logout ending the session. A browser is stood in for by HttpsSession, which
// keeps the token server's cookies as a browser does.

const PASSWORD = 'correct horse battery staple';
const ADMIN = 'session-admin@example.com';
const CONSOLE_PORT = 3443;
const CONSOLE_ORIGIN = `https://localhost:${CONSOLE_PORT}`;
const CALLBACK = `${CONSOLE_ORIGIN}/console/callback`;
const SILENT_CALLBACK = `${CONSOLE_ORIGIN}/console/silent-callback`;
const SIGNED_OUT = `${CONSOLE_ORIGIN}/console/signed-out`;

let server: TestServer;

beforeAll(async () => {
  server = await startServerWithAdmin(
    { email: ADMIN, password: PASSWORD },
    { env: { CATALOG_API_PORT: String(CONSOLE_PORT) } },
  );
});
afterAll(async () => {
  await server?.stop({ removeData: true });
});

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

const authorizeUrl = (redirectUri: string, challenge: string, extra: Record<string, string> = {}) =>
  `${server.url}/oauth2/authorize?${new URLSearchParams({
    client_id: 'catalog-admin',
    response_type: 'code',
    scope: 'openid',
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st',
    ...extra,
  })}`;

/** A browser signed in at the token server, with the console's ID token. */
async function signedInBrowser() {
  const browser = new HttpsSession({ ca: server.ca });
  const { verifier, challenge } = pkce();
  const callback = await signInThroughLoginPage({
    session: browser,
    authorizationUrl: authorizeUrl(CALLBACK, challenge),
    redirectUri: CALLBACK,
    email: ADMIN,
    password: PASSWORD,
  });
  const code = new URL(callback).searchParams.get('code') ?? '';
  const reply = await postToken(
    server,
    {
      grant_type: 'authorization_code',
      client_id: 'catalog-admin',
      code,
      code_verifier: verifier,
      redirect_uri: CALLBACK,
    },
    { Origin: CONSOLE_ORIGIN },
  );
  return { browser, idToken: String(reply.json.id_token) };
}

/** The hidden frame's request: where the token server redirects it. */
async function silentAuthorization(browser: HttpsSession) {
  const reply = await browser.send(
    'GET',
    authorizeUrl(SILENT_CALLBACK, pkce().challenge, { prompt: 'none' }),
  );
  return { reply, location: new URL(String(reply.headers.location ?? ''), server.url) };
}

const logoutUrl = (params: Record<string, string>) =>
  `${server.url}/oauth2/logout?${new URLSearchParams(params)}`;

describe('silent renewal: prompt=none in a frame of the console', () => {
  it('while the session lasts, answers a code at the silent callback, and only the console origins may frame that answer', async () => {
    const { browser } = await signedInBrowser();
    const { reply, location } = await silentAuthorization(browser);
    expect(reply.status).toBe(303);
    expect(`${location.origin}${location.pathname}`).toBe(SILENT_CALLBACK);
    expect(location.searchParams.get('code')).toBeTruthy();
    const policy = String(reply.headers['content-security-policy']);
    expect(/frame-ancestors ([^;]+)/.exec(policy)?.[1]?.split(' ')).toEqual([
      CONSOLE_ORIGIN,
      `https://127.0.0.1:${CONSOLE_PORT}`,
    ]);
    expect(reply.headers['x-frame-options']).toBeUndefined();
  });

  it('without a session, answers login_required at the silent callback: no page is shown', async () => {
    const { reply, location } = await silentAuthorization(new HttpsSession({ ca: server.ca }));
    expect(reply.status).toBe(303);
    expect(`${location.origin}${location.pathname}`).toBe(SILENT_CALLBACK);
    expect(location.searchParams.get('error')).toBe('login_required');
  });

  it('an authorization request that may show a page (no prompt=none) still cannot be framed', async () => {
    const reply = await new HttpsSession({ ca: server.ca }).send(
      'GET',
      authorizeUrl(CALLBACK, pkce().challenge),
    );
    expect(String(reply.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(reply.headers['x-frame-options']).toBe('DENY');
  });
});

describe("sign-out ends the token server's session (RP-initiated logout)", () => {
  it("the console's own request (its ID token as hint) submits itself, and afterwards prompt=none answers login_required", async () => {
    const { browser, idToken } = await signedInBrowser();
    const page = await browser.send(
      'GET',
      logoutUrl({ id_token_hint: idToken, post_logout_redirect_uri: SIGNED_OUT }),
    );
    expect(page.status).toBe(200);
    expect(page.body).toContain('<main>');
    const script = /<script>([^<]+)<\/script>/.exec(page.body)?.[1] ?? '';
    expect(script).toContain('submit()');
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain(`script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(policy).toContain(`form-action 'self' ${CONSOLE_ORIGIN}`);
    expect(policy).toContain("frame-ancestors 'none'");

    const action = new URL(/action="([^"]+)"/.exec(page.body)?.[1] ?? '', server.url).href;
    const fields = new URLSearchParams(
      [...page.body.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map(
        ([, name = '', value = '']): [string, string] => [name, value],
      ),
    );
    expect(fields.get('logout')).toBe('yes');
    const done = await browser.send('POST', action, fields);
    expect(done.status).toBe(303);
    expect(String(done.headers.location)).toBe(SIGNED_OUT);

    const { location } = await silentAuthorization(browser);
    expect(location.searchParams.get('error')).toBe('login_required');
  });

  it('a request without the hint of this session is a page with a button, no script', async () => {
    const { browser } = await signedInBrowser();
    const page = await browser.send(
      'GET',
      logoutUrl({ client_id: 'catalog-admin', post_logout_redirect_uri: SIGNED_OUT }),
    );
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('<script');
    expect(page.body).toContain('<button type="submit" form="op.logoutForm">Sign out</button>');
    expect(String(page.headers['content-security-policy'])).not.toContain('script-src');
    // Not signed out by merely opening the page.
    const { location } = await silentAuthorization(browser);
    expect(location.searchParams.get('code')).toBeTruthy();
  });

  it('refuses a post-logout redirect URI the console did not register', async () => {
    const { browser, idToken } = await signedInBrowser();
    const page = await browser.send(
      'GET',
      logoutUrl({
        id_token_hint: idToken,
        post_logout_redirect_uri: 'https://evil.example/console/signed-out',
      }),
    );
    expect(page.status).toBe(400);
    expect(page.body).not.toContain('evil.example/console');
  });
});
