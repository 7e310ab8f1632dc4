import { rawRequest } from '@catalog/server-runtime/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpsSession } from '../src/admin/https-session.ts';
import { createAdminUser } from '../src/admin/index.ts';
import { ADMIN_REDIRECT_URI, adminAuthorizeUrl, PKCE_VERIFIER } from './support/login-form.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { postToken } from './support/token-requests.ts';

const PASSWORD = 'correct horse battery staple';
const ADMIN = 'admin@example.com';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop({ removeData: true });
  server = undefined;
});

/** An unauthenticated authorization request with no cookies: what a flood is made of. */
const anonymousAuthorize = (running: TestServer) =>
  rawRequest(adminAuthorizeUrl(running.url), { ca: running.ca, headers: { Accept: 'text/html' } });

async function flood(running: TestServer, requests: number, concurrency = 10) {
  const statuses: number[] = [];
  const retryAfter = new Set<string | string[] | undefined>();
  for (let sent = 0; sent < requests; sent += concurrency) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(concurrency, requests - sent) }, () => anonymousAuthorize(running)),
    );
    for (const reply of batch) {
      statuses.push(reply.status);
      if (reply.status >= 400) retryAfter.add(reply.headers['retry-after']);
    }
  }
  return { statuses, retryAfter };
}

const count = (statuses: number[], status: number) => statuses.filter((value) => value === status).length;

describe('sign-ins in progress survive a flood of authorization requests', () => {
  it('keeps an admin sign-in in progress alive through a flood past the capacity, refusing new ones with 503 + Retry-After', async () => {
    server = await startTestServer({ env: { SIGN_IN_CAPACITY: '10', SIGN_IN_RATE_LIMIT_IP_PER_15MIN: '0' } });
    await createAdminUser({
      users: server.store.adminUsers,
      email: ADMIN,
      password: PASSWORD,
      groups: ['admin'],
    });
    const admin = new HttpsSession({ ca: server.ca });
    const started = await admin.send('GET', adminAuthorizeUrl(server.url));
    const pageUrl = new URL(String(started.headers.location), server.url).href;
    const page = await admin.send('GET', pageUrl);
    const action = new URL(/action="([^"]+)"/.exec(page.body)?.[1] ?? '', server.url).href;
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';

    const { statuses, retryAfter } = await flood(server, 60);
    const posted = await admin.send(
      'POST',
      action,
      new URLSearchParams({ csrf, email: ADMIN, password: PASSWORD }),
    );
    expect(posted.status).toBe(303);
    const resumed = await admin.send('GET', new URL(String(posted.headers.location), action).href);
    const callback = new URL(String(resumed.headers.location));
    expect(callback.href.startsWith(ADMIN_REDIRECT_URI)).toBe(true);
    const exchanged = await postToken(server, {
      grant_type: 'authorization_code',
      client_id: 'catalog-admin',
      code: callback.searchParams.get('code') ?? '',
      redirect_uri: ADMIN_REDIRECT_URI,
      code_verifier: PKCE_VERIFIER,
    });
    expect(exchanged.status).toBe(200);
    expect(typeof exchanged.json.id_token).toBe('string');

    expect(count(statuses, 303)).toBe(9); // the capacity, less the admin's sign-in
    expect(count(statuses, 503)).toBe(51);
    expect([...retryAfter]).toEqual(['60']);
  });

  it('limits the sign-in requests of one source IP with 429 + Retry-After (authorization endpoint and login pages)', async () => {
    server = await startTestServer({ env: { SIGN_IN_RATE_LIMIT_IP_PER_15MIN: '6' } });
    const { statuses, retryAfter } = await flood(server, 8, 1);
    expect(statuses).toEqual([303, 303, 303, 303, 303, 303, 429, 429]);
    const [wait] = [...retryAfter];
    expect(Number(wait)).toBeGreaterThan(0);
    expect(Number(wait)).toBeLessThanOrEqual(900);
    const loginPage = await rawRequest(`${server.url}/interaction/any-uid`, { ca: server.ca });
    expect(loginPage.status).toBe(429);
  });
});
