import { createAdminUser } from '@catalog/identity';
import { createTestDatabase, type TestDatabase } from '@catalog/store/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LoginLockout } from '../src/accounts/login-lockout.ts';
import { memoryRateLimiters } from '../src/adapters/memory-rate-limiters.ts';
import { openLogin, postLogin } from './support/login-form.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

// One email, one count: the lock-out counts an email under the form the store finds accounts by
// (canonicalEmail), on either engine. PostgreSQL's lower() once found `iris@…` for `İris@…`, which
// the lock-out counted apart, so a locked account signed in under the other spelling.

const PASSWORD = 'correct horse battery staple';
const FAILURES_PER_EMAIL = 5;

/** Spellings of iris@example.com: case, full-width letters, spaces around it. */
const IRIS_SPELLINGS = [
  'IRIS@EXAMPLE.COM',
  'ｉｒｉｓ＠ｅｘａｍｐｌｅ．ｃｏｍ',
  ' Iris@Example.com ',
  'iris@example.com',
  'iRiS@example.com',
];

/** Spellings of İlke@example.com (İ is U+0130): capitals, and I followed by the combining dot above. */
const DOTTED_SPELLINGS = [
  'İLKE@example.com',
  'I\u0307lke@example.com',
  'i\u0307lke@example.com',
  'İlke@example.com',
];

describe('LoginLockout counts every spelling of an email as that email', () => {
  it('shares one failure count between the spellings: the fifth failure, whatever its spelling, locks all of them', async () => {
    const lockout = new LoginLockout({
      perEmail: memoryRateLimiters('login-email', { points: FAILURES_PER_EMAIL, windowSeconds: 900 }),
      perIp: memoryRateLimiters('login-ip', { points: 1000, windowSeconds: 900 }),
    });
    for (const email of IRIS_SPELLINGS.slice(0, FAILURES_PER_EMAIL - 1)) {
      await lockout.recordFailure({ email, ip: '203.0.113.1' });
    }
    for (const email of IRIS_SPELLINGS) {
      expect(await lockout.lockedFor({ email, ip: '203.0.113.2' })).toBeUndefined();
    }
    const fifth = IRIS_SPELLINGS[FAILURES_PER_EMAIL - 1] as string;
    expect((await lockout.recordFailure({ email: fifth, ip: '203.0.113.3' })).email).toBe(true);
    for (const email of IRIS_SPELLINGS) {
      expect(await lockout.lockedFor({ email, ip: '203.0.113.4' })).toBeGreaterThan(0);
    }
    // Other emails: İ lowers to i + U+0307, and small capitals are no ASCII letters.
    expect(await lockout.lockedFor({ email: 'İris@example.com', ip: '203.0.113.4' })).toBeUndefined();
    expect(await lockout.lockedFor({ email: 'ɪʀɪꜱ@example.com', ip: '203.0.113.4' })).toBeUndefined();
  });
});

describe.each(['sqlite', 'postgres'] as const)(
  'login page on %s: a locked account stays locked under every spelling of its email',
  (engine) => {
    let database: TestDatabase | undefined;
    let server: TestServer;

    beforeAll(async () => {
      const env: Record<string, string> = {
        LOGIN_FAILURES_EMAIL_PER_15MIN: String(FAILURES_PER_EMAIL),
        LOGIN_FAILURES_IP_PER_15MIN: '1000',
        SIGN_IN_RATE_LIMIT_IP_PER_15MIN: '0',
      };
      if (engine === 'postgres') {
        database = await createTestDatabase(inject('testSettings').databaseUrl, 'auth_email_spellings');
        env.DATABASE_URL = database.url;
      }
      server = await startTestServer({ env });
      const users = server.store.adminUsers;
      await createAdminUser({ users, email: 'iris@example.com', password: PASSWORD, groups: ['admin'] });
      await createAdminUser({ users, email: 'İlke@example.com', password: PASSWORD, groups: ['admin'] });
      await createAdminUser({
        users,
        email: 'ilke@example.com',
        password: `${PASSWORD} too`,
        groups: ['admin'],
      });
    });
    afterAll(async () => {
      await server?.stop({ removeData: true });
      await database?.drop();
    });

    const signIn = async (email: string, password: string) =>
      (await postLogin(await openLogin(server), server.ca, email, password)).status;

    it('signs in as iris@example.com under another spelling before any failure (the spellings find the account)', async () => {
      expect(await signIn('ｉｒｉｓ＠ｅｘａｍｐｌｅ．ｃｏｍ', PASSWORD)).toBe(303);
      expect(await signIn('I\u0307LKE@example.com', PASSWORD)).toBe(303);
    });

    it('counts failures under every spelling of iris@example.com as one, then refuses the right password under each, and İris@example.com never signs in to it', async () => {
      for (const email of IRIS_SPELLINGS) expect(await signIn(email, 'wrong password 123')).toBe(401);
      for (const email of IRIS_SPELLINGS) expect(await signIn(email, PASSWORD), email).toBe(429);
      // İ lowers to i + U+0307: another email, with no account, so iris's password opens nothing.
      expect(await signIn('İris@example.com', PASSWORD)).toBe(401);
      expect(await signIn('İRIS@EXAMPLE.COM', PASSWORD)).toBe(401);
    });

    it('locks İlke@example.com (İ is U+0130) under every spelling of it, and leaves ilke@example.com, another account, open', async () => {
      for (let failure = 0; failure < FAILURES_PER_EMAIL; failure += 1) {
        const email = DOTTED_SPELLINGS[failure % DOTTED_SPELLINGS.length] as string;
        expect(await signIn(email, 'wrong password 123')).toBe(401);
      }
      for (const email of DOTTED_SPELLINGS) expect(await signIn(email, PASSWORD), email).toBe(429);
      expect(await signIn('ILKE@example.com', `${PASSWORD} too`)).toBe(303);
    });
  },
);
