import { Agent, request } from 'node:https';
import { createAdminUser, obtainAdminIdToken } from '@catalog/identity';
import { afterEach, describe, expect, it } from 'vitest';
import { LoginLockout } from '../src/accounts/login-lockout.ts';
import { memoryRateLimiters } from '../src/adapters/memory-rate-limiters.ts';
import { loadAuthServerConfig } from '../src/config/config.ts';
import { openLogin, postLogin } from './support/login-form.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { basic, postToken } from './support/token-requests.ts';

const PASSWORD = 'correct horse battery staple';
const ADMIN = 'admin@example.com';
const SCOPE = 'crm-api/products.read';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop({ removeData: true });
  server = undefined;
});

async function start(env: Record<string, string>) {
  const running = await startTestServer({ env });
  await createAdminUser({
    users: running.store.adminUsers,
    email: ADMIN,
    password: PASSWORD,
    groups: ['admin'],
  });
  server = running;
  return running;
}

function expectTokenRateLimited(reply: Awaited<ReturnType<typeof postToken>>) {
  expect(reply.status).toBe(429);
  expect(reply.json).toEqual({
    error: 'slow_down',
    error_description: expect.stringMatching(/retry after \d+ s/),
  });
  const wait = Number(reply.headers['retry-after']);
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(60);
}

/** A GET that leaves its kept-alive connection in the agent's pool. */
function warmUp(url: string, agent: Agent) {
  return new Promise<void>((resolve, reject) => {
    request(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    })
      .on('error', reject)
      .end();
  });
}

describe('token endpoint rate limits (429 + Retry-After, body in the token error shape)', () => {
  it('limits the token requests of one source IP, whatever the credentials', async () => {
    const running = await start({ TOKEN_RATE_LIMIT_IP_PER_MIN: '5', TOKEN_RATE_LIMIT_CLIENT_PER_MIN: '0' });
    const client = await running.createClient();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await postToken(running, {
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: `wrong-${attempt}`,
        scope: SCOPE,
      });
      expect(wrong.status).toBe(400); // credential errors keep the spec's 400 invalid_client
      expect(wrong.json.error).toBe('invalid_client');
    }
    expectTokenRateLimited(
      await postToken(running, {
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: client.clientSecret,
        scope: SCOPE,
      }),
    );
  });

  it('refuses wrong secrets for one client id past its failure limit (429), through the form or HTTP Basic, for an unknown id alike, and no other client', async () => {
    const running = await start({ TOKEN_RATE_LIMIT_IP_PER_MIN: '0', TOKEN_RATE_LIMIT_CLIENT_PER_MIN: '3' });
    const target = await running.createClient();
    const other = await running.createClient();
    const wrong = (clientId: string) =>
      postToken(running, {
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: 'not the secret',
        scope: SCOPE,
      });
    for (const clientId of [target.clientId, 'no-such-client']) {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expect((await wrong(clientId)).json).toMatchObject({ error: 'invalid_client' });
      }
      expectTokenRateLimited(await wrong(clientId));
    }
    expectTokenRateLimited(
      await postToken(
        running,
        { grant_type: 'client_credentials', scope: SCOPE },
        { Authorization: basic(target.clientId, 'not the secret') },
      ),
    );
    const unaffected = await postToken(running, {
      grant_type: 'client_credentials',
      client_id: other.clientId,
      client_secret: other.clientSecret,
      scope: SCOPE,
    });
    expect(unaffected.status).toBe(200);
  });

  it('serves the right secret, through the form or HTTP Basic, while its client id is hammered with wrong secrets from many addresses', async () => {
    const limit = 60;
    const running = await start({ TRUST_PROXY: 'true', TOKEN_RATE_LIMIT_CLIENT_PER_MIN: String(limit) });
    const target = await running.createClient();
    const from = (address: string) => ({ 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': address });
    const guess = (attempt: number) =>
      postToken(
        running,
        {
          grant_type: 'client_credentials',
          client_id: target.clientId,
          client_secret: `guess-${attempt}`,
          scope: SCOPE,
        },
        from(`198.51.100.${attempt % 250}`),
      );
    for (let attempt = 0; attempt < limit; attempt += 1) {
      expect((await guess(attempt)).json).toMatchObject({ error: 'invalid_client' });
    }
    expectTokenRateLimited(await guess(limit));
    const integrator = from('203.0.113.50');
    const posted = await postToken(
      running,
      {
        grant_type: 'client_credentials',
        client_id: target.clientId,
        client_secret: target.clientSecret,
        scope: SCOPE,
      },
      integrator,
    );
    expect(posted.status).toBe(200);
    expect(posted.json).toMatchObject({ token_type: 'Bearer', scope: SCOPE });
    const viaBasic = await postToken(
      running,
      { grant_type: 'client_credentials', scope: SCOPE },
      { ...integrator, Authorization: basic(target.clientId, target.clientSecret) },
    );
    expect(viaBasic.status).toBe(200);
    // The guesses stay refused past the limit, whatever the address.
    expectTokenRateLimited(await guess(limit + 1));
  });

  it('behind a proxy, keys the per-IP limit on the address the proxy appended, not on what the caller wrote before it', async () => {
    const running = await start({
      TRUST_PROXY: 'true',
      TOKEN_RATE_LIMIT_IP_PER_MIN: '2',
      TOKEN_RATE_LIMIT_CLIENT_PER_MIN: '0',
    });
    const form = { grant_type: 'client_credentials', client_id: 'unknown', client_secret: 'x', scope: SCOPE };
    const through = (forwardedFor: string) =>
      postToken(running, form, { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': forwardedFor });
    for (const spoofed of ['192.0.2.1', '192.0.2.2']) {
      expect((await through(`${spoofed}, 203.0.113.7`)).status).toBe(400);
    }
    expectTokenRateLimited(await through('192.0.2.3, 203.0.113.7'));
    expect((await through('192.0.2.3, 203.0.113.8')).status).toBe(400);
  });
  it('behind a proxy, a caller that is not one of TRUSTED_PROXIES cannot write the address the per-IP limit counts', async () => {
    const proxy = '127.0.0.1';
    const directCaller = '127.0.0.2';
    const running = await start({
      TRUST_PROXY: 'true',
      TRUSTED_PROXIES: proxy,
      TOKEN_RATE_LIMIT_IP_PER_MIN: '2',
      TOKEN_RATE_LIMIT_CLIENT_PER_MIN: '0',
    });
    const form = { grant_type: 'client_credentials', client_id: 'unknown', client_secret: 'x', scope: SCOPE };
    const forged = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '203.0.113.7' };
    // Around the proxy, on the instance's own port: a direct plain-HTTP request, refused before any limit.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const direct = await postToken(running, form, forged, directCaller);
      expect(direct.status).toBe(400);
      expect(direct.json).toEqual({ message: expect.stringContaining('HTTPS only') });
    }
    // 203.0.113.7's window is whole: two requests through the proxy, then the limit.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect((await postToken(running, form, forged, proxy)).json).toMatchObject({ error: 'invalid_client' });
    }
    expectTokenRateLimited(await postToken(running, form, forged, proxy));
  });
});

describe('login page limits', () => {
  it('refuses a source IP (429 + Retry-After) after its failures on different emails, even with the right password next', async () => {
    const running = await start({ LOGIN_FAILURES_IP_PER_15MIN: '3' });
    const login = await openLogin(running);
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      expect((await postLogin(login, running.ca, email, 'wrong password')).status).toBe(401);
    }
    const refused = await postLogin(login, running.ca, ADMIN, PASSWORD);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(900);
  });

  it('locks an email whatever the address, and answers 429 with Retry-After', async () => {
    const running = await start({ LOGIN_FAILURES_EMAIL_PER_15MIN: '2' });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const login = await openLogin(running);
      expect((await postLogin(login, running.ca, ADMIN, 'wrong password')).status).toBe(401);
    }
    const locked = await postLogin(await openLogin(running), running.ca, ADMIN, PASSWORD);
    expect(locked.status).toBe(429);
    expect(Number(locked.retryAfter)).toBeGreaterThan(0);
  });

  it('keeps an email locked however many other emails fail afterwards (nothing is forgotten before its window ends)', async () => {
    const config = loadAuthServerConfig({ DATA_DIR: '/tmp/unused' }).limits;
    const lockout = new LoginLockout({
      perEmail: memoryRateLimiters('login-email', config.loginFailuresPerEmail),
      perIp: memoryRateLimiters('login-ip', config.loginFailuresPerIp),
    });
    const target = { email: ADMIN, ip: '203.0.113.1' };
    for (let attempt = 0; attempt < config.loginFailuresPerEmail.points; attempt += 1) {
      await lockout.recordFailure(target);
    }
    expect(await lockout.lockedFor({ email: ADMIN, ip: '203.0.113.2' })).toBeGreaterThan(0);
    // More emails than the old lock-out's 10,000-entry table, from many addresses.
    for (let other = 0; other < 12_000; other += 1) {
      await lockout.recordFailure({
        email: `other${other}@example.com`,
        ip: `198.51.${other % 250}.${other % 200}`,
      });
    }
    expect(await lockout.lockedFor({ email: ADMIN, ip: '203.0.113.3' })).toBeGreaterThan(0);
  });

  it('bounds the password checks in flight: a burst of logins gets 401 or 503 + Retry-After, and a real login still succeeds', async () => {
    const running = await start({
      PASSWORD_CHECK_CONCURRENCY: '1',
      PASSWORD_CHECK_QUEUE: '0',
      LOGIN_FAILURES_IP_PER_15MIN: '1000',
      LOGIN_FAILURES_EMAIL_PER_15MIN: '1000',
    });
    const login = await openLogin(running);
    // Connections opened first, so the burst's requests reach the server together: each scrypt
    // derivation (32 MiB) takes far longer than the server needs to read them all.
    const agent = new Agent({ keepAlive: true, maxSockets: 12, ca: running.ca });
    try {
      await Promise.all(Array.from({ length: 12 }, () => warmUp(`${running.url}/health`, agent)));
      const burst = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          postLogin(login, running.ca, `user${index}@example.com`, 'wrong password', { agent }),
        ),
      );
      const statuses = new Set(burst.map((reply) => reply.status));
      expect([...statuses].sort()).toEqual([401, 503]);
      for (const reply of burst.filter((each) => each.status === 503)) expect(reply.retryAfter).toBe('1');
    } finally {
      agent.destroy();
    }
    const idToken = await obtainAdminIdToken({
      authUrl: running.url,
      ca: running.ca,
      email: ADMIN,
      password: PASSWORD,
    });
    expect(idToken.split('.')).toHaveLength(3);
  });
});

describe('limit configuration', () => {
  it('refuses a negative or non-numeric limit at start-up, naming the variable', () => {
    expect(() =>
      loadAuthServerConfig({ DATA_DIR: '/tmp/unused', TOKEN_RATE_LIMIT_IP_PER_MIN: '-1' }),
    ).toThrow(/TOKEN_RATE_LIMIT_IP_PER_MIN/);
    expect(() => loadAuthServerConfig({ DATA_DIR: '/tmp/unused', SIGN_IN_CAPACITY: '0' })).toThrow(
      /SIGN_IN_CAPACITY/,
    );
    expect(() =>
      loadAuthServerConfig({ DATA_DIR: '/tmp/unused', PASSWORD_CHECK_CONCURRENCY: 'lots' }),
    ).toThrow(/PASSWORD_CHECK_CONCURRENCY/);
  });

  it('defaults to limits an administrator or an integrator never reaches', () => {
    expect(loadAuthServerConfig({ DATA_DIR: '/tmp/unused' }).limits).toEqual({
      tokenPerIp: { points: 300, windowSeconds: 60 },
      tokenPerClient: { points: 60, windowSeconds: 60 },
      signInPerIp: { points: 120, windowSeconds: 900 },
      signInCapacity: 10_000,
      loginFailuresPerIp: { points: 20, windowSeconds: 900 },
      loginFailuresPerEmail: { points: 5, windowSeconds: 900 },
      passwordCheckConcurrency: 2,
      passwordCheckQueue: 32,
    });
  });
});
