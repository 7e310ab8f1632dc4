import { signInThroughLoginPage } from '@catalog/identity';
import { RedisFaultProxy, rawRequest } from '@catalog/server-runtime/testing';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterEach, describe, expect, inject, it } from 'vitest';
import {
  ADMIN_REDIRECT_URI,
  adminAuthorizeUrl,
  openLogin,
  PKCE_VERIFIER,
  postLogin,
} from './support/login-form.ts';
import { testKeyPrefix } from './support/redis-prefix.ts';
import {
  AlternatingBrowser,
  type Deployment,
  deployment,
  type Instance,
  PUBLIC_URL,
  requestToken,
} from './support/shared-instances.ts';

// Two token servers of one deployment, one DATA_DIR (SQLite store, keys, pepper) and one Redis
// prefix: they must behave as one server would.

const PASSWORD = 'correct horse battery staple';
const ADMIN = 'admin@example.com';
const AUTHORIZATION_URL = adminAuthorizeUrl(PUBLIC_URL);
const WARN = 40;
const INFO = 30;

let deployed: Deployment | undefined;
let proxy: RedisFaultProxy | undefined;
afterEach(async () => {
  await deployed?.stop();
  deployed = undefined;
  await proxy?.close();
  proxy = undefined;
});

async function deploy(env: Record<string, string> = {}, redisUrl = inject('redisUrl')) {
  deployed = await deployment({ REDIS_URL: redisUrl, REDIS_KEY_PREFIX: testKeyPrefix(), ...env });
  await deployed.createAdmin(ADMIN, PASSWORD);
  const instances = [await deployed.start(), await deployed.start()];
  return { deployed, instances };
}

/** The whole admin sign-in, each request sent to the next instance; the code exchanged at `exchangeAt`. */
async function signInAlternating(instances: readonly Instance[], exchangeAt: Instance) {
  const browser = new AlternatingBrowser(instances);
  const callback = await signInThroughLoginPage({
    session: browser,
    authorizationUrl: AUTHORIZATION_URL,
    redirectUri: ADMIN_REDIRECT_URI,
    email: ADMIN,
    password: PASSWORD,
  });
  const exchanged = await rawRequest(`${exchangeAt.url}/oauth2/token`, {
    method: 'POST',
    ca: exchangeAt.ca,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: 'catalog-admin',
      code: callback.searchParams.get('code') ?? '',
      redirect_uri: ADMIN_REDIRECT_URI,
      code_verifier: PKCE_VERIFIER,
    }).toString(),
  });
  return { served: browser.served, exchanged };
}

async function verifyIdToken(instance: Instance, token: string) {
  const jwks = JSON.parse(
    (await rawRequest(`${instance.url}/.well-known/jwks.json`, { ca: instance.ca })).body,
  );
  return jwtVerify(token, createLocalJWKSet(jwks), {
    issuer: PUBLIC_URL,
    audience: 'catalog-admin',
    algorithms: ['ES256'],
  });
}

/** Posts the wrong password `times` times at `instance`, each from a fresh login page. */
async function failLogins(instance: Instance, times: number) {
  for (let attempt = 0; attempt < times; attempt += 1) {
    const login = await openLogin(instance);
    expect((await postLogin(login, instance.ca, ADMIN, 'not the password')).status).toBe(401);
  }
}

async function tokenStatuses(
  sequence: readonly Instance[],
  client: { clientId: string; clientSecret: string },
) {
  const statuses: number[] = [];
  for (const instance of sequence) statuses.push((await requestToken(instance, client)).status);
  return statuses;
}

/** The client's id with a wrong secret: a failed authentication, counted by the per-client limit. */
const guessing = (client: { clientId: string }) => ({
  clientId: client.clientId,
  clientSecret: 'not the secret',
});

/** An instance's outage lines in order: a warning when one starts, a line when Redis answers again. */
const outageLines = (instance: Instance) =>
  instance.logs.flatMap((entry) => {
    if (entry.level === WARN && /Redis cannot answer/.test(entry.msg)) return ['down'];
    if (entry.level === INFO && /Redis answers again/.test(entry.msg)) return ['back'];
    return [];
  });
/** No outage, or the last one over. */
const recovered = (instance: Instance) => outageLines(instance).at(-1) !== 'down';

/** Asks each instance until the last outage line of every one says Redis answers again. */
async function untilRedisAnswers(instances: readonly Instance[]) {
  const deadline = Date.now() + 60_000;
  // Any limiter call a second after the last one asks Redis again; an unknown client id is one.
  while (!instances.every(recovered)) {
    if (Date.now() > deadline) throw new Error('the instances never saw Redis answer again');
    for (const instance of instances)
      await requestToken(instance, { clientId: 'unknown', clientSecret: 'x' });
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const fallbacksOf = (instances: readonly Instance[]) =>
  Promise.all(instances.map((instance) => instance.fallbacks()));

/**
 * A new client's statuses over `sequence` of wrong-secret requests, every one decided by the shared
 * limits. A loaded machine can make Redis miss its command time-out outside any cut: that is an
 * outage of its own, and its calls are decided by each instance alone, as designed. A run in which
 * any instance fell back (its fallback metric moved) says nothing about sharing, so it is run again
 * with another client once Redis answers every instance; a bounded number of times, so a limiter that
 * never reaches Redis still fails.
 */
async function sharedStatuses(
  deployed: Deployment,
  instances: readonly Instance[],
  sequence: readonly Instance[],
) {
  const runs = 5;
  for (let run = 1; run <= runs; run += 1) {
    await untilRedisAnswers(instances);
    const before = await fallbacksOf(instances);
    const client = await deployed.createClient();
    const statuses = await tokenStatuses(sequence, guessing(client));
    const after = await fallbacksOf(instances);
    if (after.every((count, index) => count === before[index])) return { client, statuses };
  }
  throw new Error(`some instance decided a limit without Redis in each of ${runs} runs`);
}

/**
 * One warning per outage, and the instance in the state `now`. A loaded machine may see Redis miss
 * its command time-out outside the cut too, which is an outage of its own (with its own warning);
 * the rule is that no outage warns twice, so the lines alternate.
 */
function expectOneWarningPerOutage(instance: Instance, now: 'down' | 'back') {
  const lines = outageLines(instance);
  expect(lines).toEqual(lines.map((_, index) => (index % 2 === 0 ? 'down' : 'back')));
  expect(lines.at(-1)).toBe(now);
}

describe('two token servers sharing one store and one Redis behave as one', () => {
  it('completes an admin sign-in whose every step goes to the other instance, with an ID token either verifies', async () => {
    const { instances } = await deploy();
    const [one, other] = instances as [Instance, Instance];
    const { served, exchanged } = await signInAlternating(instances, one);
    // Authorization request, login page, login post, the provider's resume: A, B, A, B.
    expect(served).toEqual([0, 1, 0, 1]);
    expect(exchanged.status).toBe(200);
    const idToken = String(JSON.parse(exchanged.body).id_token);
    const { payload } = await verifyIdToken(other, idToken);
    expect(payload).toMatchObject({ aud: 'catalog-admin', email: ADMIN, groups: ['admin'] });
  });

  it('locks an email out on every instance after five wrong passwords on one, and the lock survives a restart', async () => {
    const { deployed, instances } = await deploy();
    const [one, other] = instances as [Instance, Instance];
    await failLogins(one, 5);
    const locked = await postLogin(await openLogin(other), other.ca, ADMIN, PASSWORD);
    expect(locked.status).toBe(429);
    expect(Number(locked.retryAfter)).toBeGreaterThan(0);

    await other.stop();
    const restarted = await deployed.start();
    const still = await postLogin(await openLogin(restarted), restarted.ca, ADMIN, PASSWORD);
    expect(still.status).toBe(429);
  });

  it("counts a client's failed authentications on both instances against its one limit, and serves its right secret past it", async () => {
    const { deployed, instances } = await deploy({ TOKEN_RATE_LIMIT_CLIENT_PER_MIN: '4' });
    const [one, other] = instances as [Instance, Instance];
    const { client, statuses } = await sharedStatuses(deployed, instances, [
      one,
      other,
      one,
      other,
      one,
      other,
    ]);
    expect(statuses).toEqual([400, 400, 400, 400, 429, 429]);
    expect(await tokenStatuses([one, other], client)).toEqual([200, 200]);
  });

  it('holds at most the capacity of open sign-ins of the whole deployment, whichever instance each reaches: the oldest are evicted, none refused', async () => {
    const { instances } = await deploy({ SIGN_IN_CAPACITY: '3' });
    const pages: { path: string; cookie: string }[] = [];
    for (let request = 0; request < 5; request += 1) {
      const instance = instances[request % 2] as Instance;
      const started = await rawRequest(AUTHORIZATION_URL.replace(PUBLIC_URL, instance.url), {
        ca: instance.ca,
      });
      expect(started.status).toBe(303);
      const cookie = [started.headers['set-cookie'] ?? []]
        .flat()
        .map((line) => line.split(';')[0])
        .join('; ');
      pages.push({ path: String(started.headers.location), cookie });
    }
    const statuses: number[] = [];
    for (const [index, { path, cookie }] of pages.entries()) {
      const instance = instances[(index + 1) % 2] as Instance;
      statuses.push(
        (await rawRequest(`${instance.url}${path}`, { ca: instance.ca, headers: { Cookie: cookie } })).status,
      );
    }
    expect(statuses).toEqual([400, 400, 200, 200, 200]); // the two oldest show the expired page
  });

  it('with Redis cut: still issues integrators their tokens, limits each instance on its own with one warning per outage, answers sign-in pages 503; restored: shared again', async () => {
    proxy = await RedisFaultProxy.start(inject('redisUrl'));
    const { deployed, instances } = await deploy(
      { TOKEN_RATE_LIMIT_CLIENT_PER_MIN: '3', SIGN_IN_RATE_LIMIT_IP_PER_15MIN: '0' },
      proxy.url,
    );
    const [one, other] = instances as [Instance, Instance];
    const inProgress = await openLogin(other);

    proxy.cut();
    const client = await deployed.createClient();
    // Each instance counts alone from nothing: three failures each, then 429; never unlimited.
    expect(await tokenStatuses([one, one, one, one], guessing(client))).toEqual([400, 400, 400, 429]);
    expect(await tokenStatuses([other, other, other, other], guessing(client))).toEqual([400, 400, 400, 429]);
    expect(await tokenStatuses([one, other], client)).toEqual([200, 200]);
    for (const instance of instances) {
      expectOneWarningPerOutage(instance, 'down');
      expect(await instance.fallbacks()).toBeGreaterThanOrEqual(4);
    }

    const uid = /\/interaction\/([^/]+)\/login$/.exec(inProgress.action)?.[1] ?? '';
    const page = (instance: Instance, path: string) =>
      rawRequest(`${instance.url}${path}`, { ca: instance.ca, headers: { Cookie: inProgress.cookie } });
    const pages = [
      // A new sign-in, the login page of one in progress (ours), its resume (oidc-provider's).
      await page(one, AUTHORIZATION_URL.slice(PUBLIC_URL.length)),
      await page(other, `/interaction/${uid}`),
      await page(one, `/oauth2/authorize/${uid}`),
    ];
    const posted = await postLogin(inProgress, other.ca, ADMIN, PASSWORD);
    expect(posted.status).toBe(503);
    expect(posted.retryAfter).toBe('5');
    for (const reply of pages) {
      expect(reply.status).toBe(503);
      expect(reply.headers['retry-after']).toBe('5');
      expect(reply.headers['content-type']).toMatch(/^text\/html/);
      expect(reply.body).toContain('Sign-in is unavailable for a moment');
      expect(reply.body).not.toMatch(/Error|\bat \S+:\d+/);
    }
    for (const instance of instances) expect(instance.logs.filter((entry) => entry.level >= 50)).toEqual([]);

    proxy.restore();
    await untilRedisAnswers(instances);
    for (const instance of instances) expectOneWarningPerOutage(instance, 'back');
    const { statuses } = await sharedStatuses(deployed, instances, [one, other, one, other, one]);
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
    // The sign-in started before the cut carries on, and a new one completes across both.
    expect((await postLogin(inProgress, one.ca, ADMIN, PASSWORD)).status).toBe(303);
    const { exchanged } = await signInAlternating(instances, other);
    expect(exchanged.status).toBe(200);
  });
});
