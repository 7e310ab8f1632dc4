import { createAdminUser } from '@catalog/identity';
import { connectRedis } from '@catalog/server-runtime';
import { rawRequest } from '@catalog/server-runtime/testing';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { ADMIN_REDIRECT_URI, adminAuthorizeUrl, openLogin, PKCE_VERIFIER } from './support/login-form.ts';
import { testKeyPrefix } from './support/redis-prefix.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { postToken } from './support/token-requests.ts';

const PASSWORD = 'correct horse battery staple';
const ADMIN = 'admin@example.com';
const CAPACITY = 10;
const PER_ADDRESS = 12;
// Above the flood's requests per address: room for the retries of `served`.
const PER_IP_LIMIT = 40;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop({ removeData: true });
  server = undefined;
});

/** What the proxy in front adds to a request from `address` (TRUST_PROXY). */
const fromAddress = (address: string) => ({ 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': address });

type Reply = Awaited<ReturnType<typeof rawRequest>>;

/**
 * The reply once served: a 503 with Retry-After 5 means Redis did not answer within its command
 * time-out (a loaded machine), which a browser is told to retry; any other answer is returned.
 */
async function served(send: () => Promise<Reply>): Promise<Reply> {
  for (let attempt = 1; ; attempt += 1) {
    const reply = await send();
    if (reply.status !== 503 || reply.headers['retry-after'] !== '5' || attempt === 10) return reply;
  }
}

/** An unauthenticated authorization request with no cookies: what a flood is made of. */
const anonymousAuthorize = (running: TestServer, headers: Record<string, string> = {}) =>
  rawRequest(adminAuthorizeUrl(running.url), {
    ca: running.ca,
    headers: { Accept: 'text/html', ...headers },
  });

/** Every address sends `perAddress` authorization requests (within its limit), ten at a time. */
async function flood(running: TestServer, addresses: number, perAddress: number) {
  const requests = Array.from({ length: addresses * perAddress }, (_, index) =>
    fromAddress(`198.51.100.${(index % addresses) + 1}`),
  );
  const statuses: number[] = [];
  for (let sent = 0; sent < requests.length; sent += 10) {
    const batch = requests
      .slice(sent, sent + 10)
      .map((headers) => served(() => anonymousAuthorize(running, headers)));
    statuses.push(...(await Promise.all(batch)).map((reply) => reply.status));
  }
  return statuses;
}

const cookiesOf = (setCookie: string | string[] | undefined) =>
  (Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie]).map(
    (line) => line.split(';')[0] ?? '',
  );

/** The admin's login form posted with the right password: the 303 to oidc-provider's resume. */
async function postPassword(running: TestServer, headers: Record<string, string>) {
  let login = await openLogin(running, headers);
  // No form is what a 503 of `served` looks like here.
  for (let attempt = 1; login.csrf === '' && attempt < 10; attempt += 1)
    login = await openLogin(running, headers);
  const posted = await served(() =>
    rawRequest(login.action, {
      method: 'POST',
      ca: running.ca,
      headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded', Cookie: login.cookie },
      body: new URLSearchParams({ csrf: login.csrf, email: ADMIN, password: PASSWORD }).toString(),
    }),
  );
  const cookie = [login.cookie, ...cookiesOf(posted.headers['set-cookie'])].filter(Boolean).join('; ');
  return { posted, cookie };
}

/** Follows the resume to the callback and exchanges the code: the ID token's HTTP status. */
async function finishSignIn(
  running: TestServer,
  headers: Record<string, string>,
  resume: { posted: Reply; cookie: string },
) {
  expect(resume.posted.status).toBe(303);
  const resumed = await served(() =>
    rawRequest(String(resume.posted.headers.location), {
      ca: running.ca,
      headers: { ...headers, Cookie: resume.cookie },
    }),
  );
  const callback = new URL(String(resumed.headers.location));
  expect(callback.href.startsWith(ADMIN_REDIRECT_URI)).toBe(true);
  const exchange = () =>
    postToken(
      running,
      {
        grant_type: 'authorization_code',
        client_id: 'catalog-admin',
        code: callback.searchParams.get('code') ?? '',
        redirect_uri: ADMIN_REDIRECT_URI,
        code_verifier: PKCE_VERIFIER,
      },
      headers,
    );
  let exchanged = await exchange();
  for (let attempt = 1; exchanged.status === 503 && attempt < 10; attempt += 1) exchanged = await exchange();
  expect(typeof exchanged.json.id_token).toBe('string');
  return exchanged.status;
}

const engines = [
  { engine: 'in-process memory', env: () => ({}) },
  {
    engine: 'Redis',
    env: () => ({ REDIS_URL: inject('redisUrl'), REDIS_KEY_PREFIX: testKeyPrefix() }),
  },
] as const;

describe.each(engines)('sign-ins through a flood of authorization requests ($engine)', ({ env }) => {
  const start = async () => {
    const settings = {
      SIGN_IN_CAPACITY: String(CAPACITY),
      SIGN_IN_RATE_LIMIT_IP_PER_15MIN: String(PER_IP_LIMIT),
      TRUST_PROXY: 'true',
      ...env(),
    };
    server = await startTestServer({ env: settings });
    await createAdminUser({
      users: server.store.adminUsers,
      email: ADMIN,
      password: PASSWORD,
      groups: ['admin'],
    });
    return { running: server, settings };
  };

  it('lets an admin sign in after callers from many addresses, each within its limit, started ten times the capacity of sign-ins', async () => {
    const { running, settings } = await start();
    const statuses = await flood(running, 9, PER_ADDRESS);
    // Open sign-ins past the capacity evict the oldest: none is refused for room.
    expect(statuses.filter((status) => status !== 303)).toEqual([]);
    expect(statuses).toHaveLength(9 * PER_ADDRESS);

    const admin = fromAddress('203.0.113.5');
    expect(await finishSignIn(running, admin, await postPassword(running, admin))).toBe(200);

    if ('REDIS_KEY_PREFIX' in settings) {
      const redis = await connectRedis(inject('redisUrl'));
      try {
        const stored = await redis.keys(`${settings.REDIS_KEY_PREFIX}auth:oidc:Interaction:*`);
        expect(stored.length).toBeLessThanOrEqual(CAPACITY);
        expect(
          await redis.zcard(`${settings.REDIS_KEY_PREFIX}auth:oidc:interactions:open`),
        ).toBeLessThanOrEqual(CAPACITY);
      } finally {
        redis.disconnect();
      }
    }
  });

  it('keeps an admin sign-in whose password was accepted through a flood past the capacity', async () => {
    const { running } = await start();
    const admin = fromAddress('203.0.113.5');
    const accepted = await postPassword(running, admin);
    const statuses = await flood(running, 9, PER_ADDRESS);
    expect(statuses.filter((status) => status !== 303)).toEqual([]);
    expect(await finishSignIn(running, admin, accepted)).toBe(200);
  });
});

describe('what an unauthenticated caller may start', () => {
  it('limits the sign-in requests of one source IP with 429 + Retry-After (authorization endpoint, login pages and end-session endpoint, whose GET stores a session)', async () => {
    server = await startTestServer({ env: { SIGN_IN_RATE_LIMIT_IP_PER_15MIN: '6' } });
    const statuses: number[] = [];
    const retryAfter = new Set<string | string[] | undefined>();
    for (let sent = 0; sent < 8; sent += 1) {
      const reply = await anonymousAuthorize(server);
      statuses.push(reply.status);
      if (reply.status >= 400) retryAfter.add(reply.headers['retry-after']);
    }
    expect(statuses).toEqual([303, 303, 303, 303, 303, 303, 429, 429]);
    const [wait] = [...retryAfter];
    expect(Number(wait)).toBeGreaterThan(0);
    expect(Number(wait)).toBeLessThanOrEqual(900);
    const loginPage = await rawRequest(`${server.url}/interaction/any-uid`, { ca: server.ca });
    expect(loginPage.status).toBe(429);
    const logout = await rawRequest(`${server.url}/oauth2/logout?client_id=catalog-admin`, { ca: server.ca });
    expect(logout.status).toBe(429);
  });

  it('stores no authorization request longer than 2048 characters of query (414), nor any POSTed one (405)', async () => {
    server = await startTestServer();
    const url = new URL(adminAuthorizeUrl(server.url));
    url.searchParams.set('state', 'x'.repeat(2048));
    const long = await rawRequest(url.href, { ca: server.ca });
    expect(long.status).toBe(414);
    expect(long.headers.location).toBeUndefined();
    url.searchParams.set('state', 'x'.repeat(1024));
    expect((await rawRequest(url.href, { ca: server.ca })).status).toBe(303);

    const posted = await rawRequest(`${server.url}/oauth2/authorize`, {
      method: 'POST',
      ca: server.ca,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URL(adminAuthorizeUrl(server.url)).search.slice(1),
    });
    expect(posted.status).toBe(405);
    expect(posted.headers.allow).toBe('GET, HEAD');
  });
});
