import { type RawReply, rawRequest } from '@catalog/server-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_REDIRECT_URI, adminAuthorizeUrl, PKCE_VERIFIER } from './support/login-form.ts';
import { startServerWithAdmin } from './support/server-with-admin.ts';
import type { TestServer } from './support/test-server.ts';
import { postToken } from './support/token-requests.ts';

const PASSWORD = 'correct horse battery staple';
const ADMIN = 'admin@example.com';
const FORGED = { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example' };

let server: TestServer;

beforeAll(async () => {
  server = await startServerWithAdmin({ email: ADMIN, password: PASSWORD });
});
afterAll(async () => {
  await server?.stop({ removeData: true });
});

/** One request over TLS to the test server whatever Host header it carries (SNI stays localhost). */
const send = (
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
) => rawRequest(new URL(path, server.url).href, { ...options, ca: server.ca, servername: 'localhost' });

const discovery = async (headers: Record<string, string> = {}) =>
  JSON.parse((await send('/.well-known/openid-configuration', { headers })).body) as Record<string, unknown>;

/** The admin client's authorization request, as a path on the test server. */
const authorizePath = () => {
  const url = new URL(adminAuthorizeUrl(server.url));
  return url.pathname + url.search;
};

const cookiesOf = (reply: RawReply) =>
  (reply.headers['set-cookie'] ?? []).map((line) => line.split(';')[0]).join('; ');

describe('discovery and redirects name only the configured public URL', () => {
  it('lists only URLs under the configured public URL in discovery, whatever Host or X-Forwarded-Host the caller sends', async () => {
    const document = await discovery(FORGED);
    const urls = Object.entries(document).filter(
      ([, value]) => typeof value === 'string' && /^https?:/.test(value),
    );
    expect(urls.map(([name]) => name)).toEqual(
      expect.arrayContaining(['issuer', 'token_endpoint', 'jwks_uri', 'authorization_endpoint']),
    );
    for (const [name, url] of urls)
      expect(`${name} ${url}`).toMatch(new RegExp(`^${name} ${server.url}(/|$)`));
    expect(JSON.stringify(document)).not.toContain('evil.example');
  });

  it('sends a signed-in browser back to the configured public URL, whatever Host the caller sends', async () => {
    const started = await send(authorizePath(), { headers: FORGED });
    expect(started.status).toBe(303);
    expect(String(started.headers.location)).not.toContain('evil.example');
    const cookie = cookiesOf(started);
    const page = await send(String(started.headers.location), { headers: { ...FORGED, Cookie: cookie } });
    const action = /action="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const posted = await send(action, {
      method: 'POST',
      headers: { ...FORGED, Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, email: ADMIN, password: PASSWORD }).toString(),
    });
    expect(posted.status).toBe(303);
    const resumeUrl = String(posted.headers.location);
    expect(resumeUrl.startsWith(`${server.url}/oauth2/authorize/`)).toBe(true);

    const resumed = await send(new URL(resumeUrl).pathname, {
      headers: { ...FORGED, Cookie: [cookie, cookiesOf(posted)].filter(Boolean).join('; ') },
    });
    const callback = new URL(String(resumed.headers.location));
    expect(callback.href.startsWith(ADMIN_REDIRECT_URI)).toBe(true);
    expect(callback.searchParams.get('iss')).toBe(server.url);
  });
});

describe('discovery advertises exactly the flows served', () => {
  it('advertises the authorization_code and client_credentials grants and the code response type only', async () => {
    const document = await discovery();
    expect([...(document.grant_types_supported as string[])].sort()).toEqual([
      'authorization_code',
      'client_credentials',
    ]);
    expect(document.response_types_supported).toEqual(['code']);
  });

  it('serves each advertised grant: client_credentials and authorization_code tokens are issued', async () => {
    const client = await server.createClient();
    const issued = await postToken(server, {
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: 'crm-api/products.read',
    });
    expect(issued.status).toBe(200);

    const started = await send(authorizePath());
    const cookie = cookiesOf(started);
    const page = await send(String(started.headers.location), { headers: { Cookie: cookie } });
    const posted = await send(/action="([^"]+)"/.exec(page.body)?.[1] ?? '', {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        csrf: /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '',
        email: ADMIN,
        password: PASSWORD,
      }).toString(),
    });
    const resumed = await send(new URL(String(posted.headers.location)).pathname, {
      headers: { Cookie: [cookie, cookiesOf(posted)].filter(Boolean).join('; ') },
    });
    const exchanged = await postToken(server, {
      grant_type: 'authorization_code',
      client_id: 'catalog-admin',
      code: new URL(String(resumed.headers.location)).searchParams.get('code') ?? '',
      redirect_uri: ADMIN_REDIRECT_URI,
      code_verifier: PKCE_VERIFIER,
    });
    expect(exchanged.status).toBe(200);
  });

  it('refuses the unadvertised response types id_token, code id_token and token', async () => {
    for (const responseType of ['id_token', 'code id_token', 'token']) {
      const url = new URL(adminAuthorizeUrl(server.url));
      url.searchParams.set('response_type', responseType);
      url.searchParams.set('nonce', 'n-0S6_WzA2Mj');
      const reply = await send(url.pathname + url.search);
      const location = String(reply.headers.location ?? '');
      expect(location).not.toContain('/interaction/');
      expect(`${location} ${reply.body}`).toContain('unsupported_response_type');
    }
  });

  it('refuses the unadvertised refresh_token grant with unsupported_grant_type', async () => {
    const reply = await postToken(server, {
      grant_type: 'refresh_token',
      client_id: 'catalog-admin',
      refresh_token: 'anything',
    });
    expect(reply.status).toBe(400);
    expect(reply.json.error).toBe('unsupported_grant_type');
  });

  it("lists the end-session endpoint (the console's Sign out, RP-initiated logout) under the public URL", async () => {
    const document = await discovery();
    expect(document.end_session_endpoint).toBe(`${document.issuer}/oauth2/logout`);
  });

  it('has no pushed authorization request endpoint: POST /request is not found and discovery does not list it', async () => {
    const document = await discovery();
    expect(document).not.toHaveProperty('pushed_authorization_request_endpoint');
    const reply = await send('/request', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: 'catalog-admin',
        response_type: 'code',
        redirect_uri: ADMIN_REDIRECT_URI,
        state: 'x'.repeat(50_000),
      }).toString(),
    });
    expect(reply.status).toBe(404);
  });
});
