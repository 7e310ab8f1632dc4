// The audit trail as an administrator reads it (issue 18): the token server's sign-in events and the
// operator CLI's actions, produced against both servers built as `pnpm start` runs them and read back
// through GET /audit-events. The API's own write routes are checked route by route in
// apps/catalog-api/test/audit-events.test.ts.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, type E2EStack, startE2EStack } from '../support/stack.ts';

interface AuditEvent {
  readonly id: string;
  readonly occurredAt: string;
  readonly action: string;
  readonly actor: { readonly kind: string; readonly email?: string; readonly name?: string };
  readonly target: { readonly type: string; readonly id: string | null };
  readonly sourceIp: string | null;
  readonly requestId: string | null;
  readonly details?: Record<string, unknown>;
}

let stack: E2EStack;
let admin: string;

async function auditEvents(query: Record<string, string>): Promise<AuditEvent[]> {
  const reply = await stack.api(`/audit-events?${new URLSearchParams({ limit: '200', ...query })}`, {
    token: admin,
  });
  expect(reply.status, reply.text).toBe(200);
  return (reply.body as { events: AuditEvent[] }).events;
}

async function operator(cli: 'admin' | 'catalog', args: string[]): Promise<string> {
  const result = await stack.operator(cli, args);
  expect(result.code, result.output).toBe(0);
  return result.stdout;
}

beforeAll(async () => {
  stack = await startE2EStack({ demoProducts: 20 });
  admin = await stack.adminIdToken();
});

afterAll(async () => {
  await stack?.stop();
});

describe('audit trail read through GET /audit-events (issue 18)', () => {
  it("records an administrator's sign-in with their account, the source address and the request id", async () => {
    const email = await stack.adminEmail();
    const signIns = await auditEvents({ action: 'admin.sign-in', actor: email });
    expect(signIns.length).toBeGreaterThanOrEqual(1);
    for (const event of signIns) {
      expect(event.actor).toMatchObject({ kind: 'admin', email });
      expect(event.target.type).toBe('admin-user');
      expect(event.sourceIp).toBe('127.0.0.1');
      expect(event.requestId).toEqual(expect.any(String));
    }
  });

  it('records each wrong password and one lock-out for the account, never the typed password', async () => {
    const email = `guessed.${Date.now()}@example.test`;
    await operator('admin', ['users', 'add', '--email', email, '--group', 'admin']);
    const guesses = [
      'wrong password one',
      'wrong password two',
      'wrong password 3',
      'wrong pass four',
      'wrong pass five',
    ];
    for (const guess of guesses) expect(await stack.signIn(email, guess)).toBeUndefined();
    // Locked out: even the right password is refused now.
    expect(await stack.signIn(email, ADMIN_PASSWORD)).toBeUndefined();

    const events = await auditEvents({ actor: email });
    const failures = events.filter((event) => event.action === 'admin.sign-in-failure');
    expect(failures.length).toBeGreaterThanOrEqual(guesses.length);
    expect(events.filter((event) => event.action === 'admin.lock-out')).toHaveLength(1);
    expect(events.some((event) => event.action === 'admin.sign-in')).toBe(false);
    const trail = JSON.stringify(events);
    for (const typed of [...guesses, ADMIN_PASSWORD]) expect(trail).not.toContain(typed);
  });

  it('records a failed sign-in for an email that names no account without keeping the typed email', async () => {
    const typed = `no.such.admin.${Date.now()}@example.test`;
    expect(await stack.signIn(typed, 'a password that names nobody')).toBeUndefined();
    const failures = await auditEvents({ action: 'admin.sign-in-failure' });
    const anonymous = failures.filter((event) => event.actor.kind === 'unknown');
    expect(anonymous.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(failures)).not.toContain(typed);
    expect(JSON.stringify(failures)).not.toContain('a password that names nobody');
  });

  it('records every operator CLI action as operator-cli, with no source address or request id', async () => {
    const email = `operator.made.${Date.now()}@example.test`;
    await operator('admin', ['users', 'add', '--email', email, '--group', 'admin']);
    await operator('admin', ['users', 'disable', '--email', email]);
    const file = join(stack.dataDir, 'audit-import.ndjson');
    await writeFile(
      file,
      '{"productCode":"AUDIT-1","name":"Audited one"}\n{"productCode":"AUDIT-2","name":"Audited two"}\n',
    );
    await operator('catalog', ['import', file]);
    await operator('catalog', ['seed', '--products', '5', '--seed', 'audit']);
    // Last: the promoted key signs from now on (the administrator's token stays valid until it expires).
    await operator('admin', ['keys', 'rotate']);
    await operator('admin', ['keys', 'rotate', '--force']);

    const events = await auditEvents({ actor: 'operator-cli' });
    const actions = new Set(events.map((event) => event.action));
    for (const action of [
      'admin-user.create',
      'admin-user.disable',
      'catalogue.import-batch',
      'catalogue.seed',
      'signing-key.stage',
      'signing-key.promote',
    ]) {
      expect(actions, action).toContain(action);
    }
    for (const event of events) {
      expect(event.actor).toEqual({ kind: 'operator', name: 'operator-cli' });
      expect(event.sourceIp).toBeNull();
      expect(event.requestId).toBeNull();
    }
    const disabled = events.find((event) => event.action === 'admin-user.disable');
    const created = events.find(
      (event) => event.action === 'admin-user.create' && event.target.id === disabled?.target.id,
    );
    expect(created?.details).toMatchObject({ email });
    const batch = events.find((event) => event.action === 'catalogue.import-batch');
    expect(JSON.stringify(batch)).toContain('2');
  });
});
