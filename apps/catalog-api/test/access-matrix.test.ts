import {
  type AccessRule,
  CATALOG_OPERATIONS,
  type CatalogOperation,
  type GrantableScope,
} from '@catalog/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.ts';

// Every operation of the document × every kind of caller, expected outcome derived from the
// operation's `security` (spec 4.1, 4.2, 5.4): 401 without a token, 403 where the caller may not
// pass, anything but 401/403 where it may.

type Caller =
  | { readonly name: string; readonly kind: 'none' }
  | { readonly name: string; readonly kind: 'm2m'; readonly scopes: GrantableScope[] }
  | { readonly name: string; readonly kind: 'user'; readonly admin: boolean };

const callers: Caller[] = [
  { name: 'no token', kind: 'none' },
  { name: 'M2M products.read', kind: 'm2m', scopes: ['products.read'] },
  { name: 'M2M brands.read', kind: 'm2m', scopes: ['brands.read'] },
  {
    name: 'M2M every scope',
    kind: 'm2m',
    scopes: ['products.read', 'products.write', 'brands.read', 'brands.write'],
  },
  { name: 'M2M write scopes only', kind: 'm2m', scopes: ['products.write', 'brands.write'] },
  { name: 'admin ID token', kind: 'user', admin: true },
  { name: 'non-admin ID token', kind: 'user', admin: false },
];

function mayPass(rule: AccessRule, caller: Caller): boolean {
  if (rule.kind === 'public') return true;
  if (caller.kind === 'none') return false;
  if (caller.kind === 'user') return caller.admin;
  return rule.kind === 'scoped' && caller.scopes.includes(rule.scope);
}

const SAMPLE_PARAMS: Record<string, string> = {
  productId: '00000000-0000-4000-8000-000000000000',
  id: 'some-brand',
  clientId: 'A'.repeat(26),
  clientsPath: '42',
};

const concretePath = (operation: CatalogOperation) =>
  operation.path.replaceAll(/\{([^}]+)\}/g, (_, name: string) => SAMPLE_PARAMS[name] ?? 'x');

const protectedOperations = [...CATALOG_OPERATIONS.values()].filter((op) => op.access.kind !== 'public');

let stack: Stack;
const tokens = new Map<string, string>();

beforeAll(async () => {
  stack = await startStack({ demoProducts: 5 });
  for (const caller of callers) {
    if (caller.kind === 'm2m') tokens.set(caller.name, (await stack.m2mToken(caller.scopes)).token);
    if (caller.kind === 'user')
      tokens.set(caller.name, await stack.idToken(caller.admin ? ['admin'] : ['staff']));
  }
});
afterAll(() => stack?.stop());

describe('access-control matrix: every route × every kind of caller (spec 4.1, 4.2, 5.4, 7.1)', () => {
  for (const operation of protectedOperations) {
    it(`${operation.method} ${operation.path} (${operation.operationId}) answers each caller as its security says`, async () => {
      for (const caller of callers) {
        const token = tokens.get(caller.name);
        const reply = await stack.call(concretePath(operation), {
          method: operation.method,
          ...(token === undefined ? {} : { token }),
          ...(operation.method === 'GET' || operation.method === 'DELETE' ? {} : { body: {} }),
        });
        const label = `${caller.name}: ${reply.status} ${reply.text.slice(0, 120)}`;
        if (caller.kind === 'none') expect(reply.status, label).toBe(401);
        else if (mayPass(operation.access, caller)) expect([401, 403], label).not.toContain(reply.status);
        else expect(reply.status, label).toBe(403);
        expect(reply.status, label).toBeLessThan(500);
      }
    });
  }
});
