// No secret leaves through the audit trail or the logs (issue 18): client secrets (right and wrong),
// passwords (right and wrong, for known and unknown emails), access tokens and ID tokens, produced by
// random sequences of administrative actions and token requests against both servers built as
// `pnpm start` runs them. Every event is read back through GET /audit-events; every line both
// servers wrote is scanned.
import { randomBytes } from 'node:crypto';
import type { GrantableScope } from '@catalog/contracts';
import { requestAccessToken } from '@catalog/server-runtime/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../support/settings.ts';
import { ADMIN_PASSWORD, type Credentials, type E2EStack, startE2EStack } from '../support/stack.ts';
import { runProperty } from './run-property.ts';

const SCOPES: GrantableScope[] = ['products.read', 'products.write', 'brands.read', 'brands.write'];

let stack: E2EStack;
let admin: string;
/** Every secret the run handled: none may appear in an audit event or a log line. */
const secrets = new Set<string>();
const clients: Credentials[] = [];

const remember = (secret: string | undefined) => {
  if (secret !== undefined && secret.length >= 8) secrets.add(secret);
};
const randomSecret = () => randomBytes(32).toString('base64url');

type Action =
  | { readonly kind: 'create'; readonly scopes: GrantableScope[]; readonly name: string }
  | { readonly kind: 'token'; readonly pick: number; readonly rightSecret: boolean }
  | { readonly kind: 'rescope'; readonly pick: number; readonly scopes: GrantableScope[] }
  | { readonly kind: 'rotate'; readonly pick: number }
  | { readonly kind: 'revoke'; readonly pick: number };

const scopeSet = fc.subarray(SCOPES, { minLength: 1 });
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    scopes: scopeSet,
    name: fc.string({ minLength: 1, maxLength: 40 }).filter((name) => name.trim() !== ''),
  }),
  fc.record({ kind: fc.constant('token' as const), pick: fc.nat(), rightSecret: fc.boolean() }),
  fc.record({ kind: fc.constant('rescope' as const), pick: fc.nat(), scopes: scopeSet }),
  fc.record({ kind: fc.constant('rotate' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('revoke' as const), pick: fc.nat() }),
);

async function createClient(scopes: GrantableScope[], name: string): Promise<void> {
  const reply = await stack.api('/oauth/clients', {
    method: 'POST',
    token: admin,
    body: { clientName: name, description: 'audit secrets fuzz', scopes },
  });
  if (reply.status !== 201) return;
  const created = reply.body as { clientId: string; clientSecret: string };
  remember(created.clientSecret);
  clients.push({ clientId: created.clientId, clientSecret: created.clientSecret });
}

async function perform(step: Action): Promise<void> {
  if (step.kind === 'create') return createClient(step.scopes, step.name);
  const client = clients[step.pick % Math.max(1, clients.length)];
  if (client === undefined) return;
  const path = `/oauth/clients/${client.clientId}`;
  switch (step.kind) {
    case 'token': {
      const clientSecret = step.rightSecret ? client.clientSecret : randomSecret();
      remember(clientSecret);
      const reply = await requestAccessToken({
        authUrl: stack.authUrl,
        ca: stack.ca,
        ...client,
        clientSecret,
        scopes: ['products.read'],
      });
      remember(reply.token);
      return;
    }
    case 'rescope':
      await stack.api(path, { method: 'PUT', token: admin, body: { scopes: step.scopes } });
      return;
    case 'rotate':
      await stack.api(`${path}/rotate-secret`, { method: 'POST', token: admin });
      return;
    case 'revoke':
      await stack.api(path, { method: 'DELETE', token: admin });
      return;
  }
}

async function allAuditEvents(): Promise<unknown[]> {
  const events: unknown[] = [];
  let before: string | null = null;
  do {
    const query: string = before === null ? '?limit=100' : `?limit=100&before=${encodeURIComponent(before)}`;
    const reply = await stack.api(`/audit-events${query}`, { token: admin });
    expect(reply.status, reply.text).toBe(200);
    const page = reply.body as { events: unknown[]; nextBefore: string | null };
    events.push(...page.events);
    before = page.nextBefore;
  } while (before !== null);
  return events;
}

beforeAll(async () => {
  stack = await startE2EStack({ demoProducts: 50 });
  admin = await stack.adminIdToken();
  remember(admin);
  remember(ADMIN_PASSWORD);
  const email = await stack.adminEmail();
  // Each kind of sign-in once, whatever the property draws: wrong password (known email), unknown
  // email, then enough failures to lock the email out.
  for (const password of [randomSecret(), randomSecret()]) {
    remember(password);
    expect(await stack.signIn(email, password)).toBeUndefined();
  }
  const guess = randomSecret();
  remember(guess);
  expect(await stack.signIn(`nobody.${Date.now()}@example.test`, guess)).toBeUndefined();
  await createClient(['products.read'], 'audit secrets seed client');
});

afterAll(async () => {
  await stack?.stop();
});

describe('audit trail and logs: no secret, password or token ever recorded', () => {
  it('after random administrative actions and token requests, no audit event and no log line of either server contains a client secret, password, access token or ID token', async () => {
    await runProperty(
      'audit secrets',
      fc.array(action, { minLength: 1, maxLength: 6 }),
      async (steps) => {
        for (const step of steps) await perform(step);
      },
      { runs: settings.fuzz.longRuns },
    );
    const events = await allAuditEvents();
    expect(events.length).toBeGreaterThan(0);
    const trail = JSON.stringify(events);
    const logs = `${stack.service('api').output()}\n${stack.service('auth').output()}`;
    const leaks = [...secrets].filter((secret) => trail.includes(secret) || logs.includes(secret));
    expect(
      leaks.map((secret) => `${secret.slice(0, 6)}… (${trail.includes(secret) ? 'audit' : 'log'})`),
    ).toEqual([]);
    expect(secrets.size).toBeGreaterThan(5);
  });
});
