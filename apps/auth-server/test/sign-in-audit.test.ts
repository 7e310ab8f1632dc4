import { createAdminUser, disableAdminUser } from '@catalog/identity';
import type { AuditEvent, AuditFilter } from '@catalog/store';
import { afterEach, describe, expect, it } from 'vitest';
import { type LoginReply, openLogin, postLogin } from './support/login-form.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

// Every sign-in, failure and lock-out of the real login page, read back from the same DATA_DIR's
// store as the catalog API reads it (issue 18).

const PASSWORD = 'correct horse battery staple';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop({ removeData: true });
  server = undefined;
});

async function start(env: Record<string, string> = {}) {
  server = await startTestServer({ env });
  return server;
}

async function addAdmin(running: TestServer, email: string) {
  return createAdminUser({ users: running.store.adminUsers, email, password: PASSWORD, groups: ['admin'] });
}

/** One login form post, as a browser makes it, with the request id the caller chose. */
async function signIn(
  running: TestServer,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<LoginReply> {
  const login = await openLogin(running, headers);
  return postLogin(login, running.ca, email, password);
}

/** The whole trail, oldest first. */
async function trail(running: TestServer, filter: Omit<AuditFilter, 'limit'> = {}): Promise<AuditEvent[]> {
  const page = await running.store.audit.list({ ...filter, limit: 1000 });
  expect(page.nextBefore).toBeNull();
  return page.events.toReversed();
}

/** The event's fields but its id and time, which the store assigns. */
const withoutStamp = ({ id: _id, occurredAt: _at, ...rest }: AuditEvent) => rest;

describe('audit trail of administrator sign-in (issue 18)', () => {
  it('records a sign-in as the account that signed in, from the address the server saw, under the request id it answered with', async () => {
    const running = await start();
    const admin = await addAdmin(running, 'ops@example.com');
    const reply = await signIn(running, 'ops@example.com', PASSWORD, {
      'X-Request-Id': 'sign-in-request-0001',
    });
    expect(reply.status).toBe(303);
    expect(reply.requestId).toBe('sign-in-request-0001');
    expect((await trail(running, { action: 'admin.sign-in' })).map(withoutStamp)).toEqual([
      {
        actor: { kind: 'admin', userId: admin.id, email: 'ops@example.com' },
        sourceIp: '127.0.0.1',
        requestId: 'sign-in-request-0001',
        action: 'admin.sign-in',
        target: { type: 'admin-user', id: admin.id },
      },
    ]);
  });

  it('records a wrong password as a failure of the account the email names, with the reason and never the password', async () => {
    const running = await start();
    const admin = await addAdmin(running, 'ops@example.com');
    const reply = await signIn(running, 'OPS@example.com', 'my other secret password');
    expect(reply.status).toBe(401);
    const events = await trail(running);
    expect(events.map(withoutStamp)).toEqual([
      {
        actor: { kind: 'admin', userId: admin.id, email: 'ops@example.com' },
        sourceIp: '127.0.0.1',
        requestId: reply.requestId,
        action: 'admin.sign-in-failure',
        target: { type: 'admin-user', id: admin.id },
        details: { reason: 'wrong-password' },
      },
    ]);
    expect(reply.requestId).toEqual(expect.any(String));
    expect(JSON.stringify(events)).not.toContain('my other secret password');
  });

  it('records a failure for an email that names no account as an unknown actor, keeping nothing that was typed', async () => {
    const running = await start();
    // People type their password into the email field: the trail must not keep that text.
    const reply = await signIn(running, 'Tr0ub4dor&3 my password', 'whatever was typed here');
    expect(reply.status).toBe(401);
    const events = await trail(running);
    expect(events.map(withoutStamp)).toEqual([
      {
        actor: { kind: 'unknown' },
        sourceIp: '127.0.0.1',
        requestId: reply.requestId,
        action: 'admin.sign-in-failure',
        target: { type: 'admin-user', id: null },
        details: { reason: 'unknown-email' },
      },
    ]);
    const text = JSON.stringify(events);
    expect(text).not.toContain('Tr0ub4dor');
    expect(text).not.toContain('whatever was typed here');
  });

  it('records a disabled account signing in with its right password as a failure with reason disabled', async () => {
    const running = await start();
    const admin = await addAdmin(running, 'leaver@example.com');
    await disableAdminUser({ users: running.store.adminUsers, email: 'leaver@example.com' });
    const reply = await signIn(running, 'leaver@example.com', PASSWORD);
    expect(reply.status).toBe(401);
    expect((await trail(running, { action: 'admin.sign-in-failure' })).map(withoutStamp)).toEqual([
      {
        actor: { kind: 'admin', userId: admin.id, email: 'leaver@example.com' },
        sourceIp: '127.0.0.1',
        requestId: reply.requestId,
        action: 'admin.sign-in-failure',
        target: { type: 'admin-user', id: admin.id },
        details: { reason: 'disabled' },
      },
    ]);
    expect(JSON.stringify(await trail(running))).not.toContain(PASSWORD);
  });

  it('records one lock-out, by the fifth failure, then each refused attempt as locked, and no sign-in', async () => {
    const running = await start();
    const admin = await addAdmin(running, 'guessed@example.com');
    const guesses = ['guess number one', 'guess number two', 'guess three', 'guess four', 'guess five'];
    const failures: LoginReply[] = [];
    for (const guess of guesses) failures.push(await signIn(running, 'guessed@example.com', guess));
    expect(failures.map((reply) => reply.status)).toEqual([401, 401, 401, 401, 401]);
    const locked = [
      await signIn(running, 'guessed@example.com', PASSWORD),
      await signIn(running, 'guessed@example.com', 'guess six'),
    ];
    expect(locked.map((reply) => reply.status)).toEqual([429, 429]);

    const actor = { kind: 'admin', userId: admin.id, email: 'guessed@example.com' };
    const target = { type: 'admin-user', id: admin.id };
    const request = (reply: LoginReply) => ({ sourceIp: '127.0.0.1', requestId: reply.requestId });
    const failure = (reply: LoginReply, reason: string) => ({
      actor,
      ...request(reply),
      action: 'admin.sign-in-failure',
      target,
      details: { reason },
    });
    const events = await trail(running, { actor: admin.id });
    expect(events.map(withoutStamp)).toEqual([
      ...failures.map((reply) => failure(reply, 'wrong-password')),
      // Recorded by the failure that reached the limit, in its own request.
      {
        actor,
        ...request(failures[4] as LoginReply),
        action: 'admin.lock-out',
        target,
        details: { scope: 'email' },
      },
      ...locked.map((reply) => failure(reply, 'locked')),
    ]);
    const text = JSON.stringify(await trail(running));
    for (const typed of [...guesses, 'guess six', PASSWORD]) expect(text).not.toContain(typed);
  });

  it('records one lock-out however many failures for the email arrive at once', async () => {
    const running = await start({ LOGIN_FAILURES_IP_PER_15MIN: '100' });
    const admin = await addAdmin(running, 'raced@example.com');
    const logins = await Promise.all(Array.from({ length: 8 }, () => openLogin(running)));
    const replies = await Promise.all(
      logins.map((login, index) => postLogin(login, running.ca, 'raced@example.com', `wrong guess ${index}`)),
    );
    for (const reply of replies) expect([401, 429]).toContain(reply.status);
    const lockOuts = await trail(running, { action: 'admin.lock-out' });
    expect(lockOuts.map(withoutStamp)).toEqual([
      {
        actor: { kind: 'admin', userId: admin.id, email: 'raced@example.com' },
        sourceIp: '127.0.0.1',
        requestId: expect.any(String),
        action: 'admin.lock-out',
        target: { type: 'admin-user', id: admin.id },
        details: { scope: 'email' },
      },
    ]);
    const failures = await trail(running, { action: 'admin.sign-in-failure' });
    expect(failures).toHaveLength(8);
  });

  it("records an address's lock-out as an unknown actor at that address, once, whatever emails it tried", async () => {
    const running = await start({ LOGIN_FAILURES_IP_PER_15MIN: '3' });
    const replies: LoginReply[] = [];
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com']) {
      replies.push(await signIn(running, email, 'wrong password'));
    }
    expect(replies.map((reply) => reply.status)).toEqual([401, 401, 401, 429]);
    expect((await trail(running, { action: 'admin.lock-out' })).map(withoutStamp)).toEqual([
      {
        actor: { kind: 'unknown' },
        sourceIp: '127.0.0.1',
        requestId: replies[2]?.requestId,
        action: 'admin.lock-out',
        target: { type: 'admin-user', id: null },
        details: { scope: 'source-ip' },
      },
    ]);
  });

  it('behind a proxy (TRUST_PROXY), records the address the proxy appended, not what the caller wrote before it', async () => {
    const running = await start({ TRUST_PROXY: 'true' });
    const admin = await addAdmin(running, 'ops@example.com');
    const reply = await signIn(running, 'ops@example.com', PASSWORD, {
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-For': '192.0.2.66, 203.0.113.9',
    });
    expect(reply.status).toBe(303);
    const [event] = await trail(running, { actor: admin.id });
    expect(event).toMatchObject({
      action: 'admin.sign-in',
      sourceIp: '203.0.113.9',
      requestId: reply.requestId,
    });
  });
});
