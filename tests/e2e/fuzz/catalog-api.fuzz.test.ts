// Bad input on every operation of the catalog API, against both servers built as `pnpm start` runs
// them: random and malformed query strings, Authorization headers, path parameters and bodies. Every
// answer: no 5xx, the body the document gives for that operation and status, no `data` in an error
// body, and nothing stored changes when the request was refused.
import {
  ADMIN_CLIENT_ID,
  CATALOG_OPERATIONS,
  type CatalogOperation,
  type CatalogOperationId,
  type GrantableScope,
} from '@catalog/contracts';
import fc from 'fast-check';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogReplyProblems, queryParameters, takesBody } from '../support/contract-check.ts';
import { tokenForge } from '../support/forged-tokens.ts';
import { describeCall, type RawAnswer, type RawCall, rawCall } from '../support/raw-http.ts';
import { report } from '../support/settings.ts';
import { type E2EStack, startE2EStack } from '../support/stack.ts';
import { openStoreGuard, type StoreGuard } from '../support/store-guard.ts';
import { type Caller, callers, expectedAuthStatus } from './credentials.ts';
import { bodyCase, extraHeaders, pathParameter, queryString } from './inputs.ts';
import { runProperty } from './run-property.ts';

const ALL_SCOPES: GrantableScope[] = ['products.read', 'products.write', 'brands.read', 'brands.write'];
const OPERATIONS: readonly CatalogOperation[] = [...CATALOG_OPERATIONS.values()];
const WITH_PATH_PARAMETERS = OPERATIONS.filter((operation) => operation.path.includes('{'));
const WITH_BODY = OPERATIONS.filter((operation) => takesBody(operation.path, operation.method));

/** Statuses seen, for the output: a property that never gets past validation proves little. */
const statuses = new Map<number, number>();

let stack: E2EStack;
let guard: StoreGuard;
let callerList: Caller[];
let tokens: { m2m: string; admin: string };
let ids: { products: string[]; brands: string[]; clients: string[] };
let validBodies: Partial<Record<CatalogOperationId, Record<string, unknown>>>;
let realCursors: { syncToken: string; lastKey: string };

beforeAll(async () => {
  stack = await startE2EStack({ demoProducts: 200 });
  const admin = await stack.adminIdToken();
  const full = await stack.createClient(ALL_SCOPES);
  const brandsOnly = await stack.createClient(['brands.read']);
  const revoked = await stack.createClient(['products.read', 'brands.read']);
  const victim = await stack.createClient(['products.read']);
  const m2m = await stack.accessToken(full, ALL_SCOPES);
  const revokedToken = await stack.accessToken(revoked);
  const revocation = await stack.api(`/oauth/clients/${revoked.clientId}`, {
    method: 'DELETE',
    token: admin,
  });
  expect(revocation.status).toBe(200);
  tokens = { m2m, admin };
  callerList = callers({
    forge: await tokenForge(stack.location, stack.authUrl, ADMIN_CLIENT_ID),
    m2m,
    m2mClientId: full.clientId,
    m2mBrandsOnly: await stack.accessToken(brandsOnly, ['brands.read']),
    revoked: revokedToken,
    admin,
  });

  guard = await openStoreGuard(stack.location);
  const column = async (sql: string) =>
    (await guard.reader.all(sql)).map((row) => String(Object.values(row)[0]));
  ids = {
    products: await column('SELECT id FROM products ORDER BY seq LIMIT 5'),
    brands: await column('SELECT id FROM brands ORDER BY seq LIMIT 3'),
    clients: [victim.clientId],
  };
  const [productCode = 'x'] = await column('SELECT product_code FROM products ORDER BY seq LIMIT 1');
  const product = {
    productCode: 'FZ-0001',
    name: 'Fuzz drill',
    description: 'A product the fuzz suite writes',
    price: 12.5,
    supplierCost: null,
    images: [{ url: 'https://example.test/a.png', name: 'a' }],
    relatedProducts: [{ productId: ids.products[0], relationType: 'optional', qty: 1, note: 'n' }],
    spares: [{ productId: ids.products[1], qty: 2 }],
    status: 'active',
    webVisibility: { 'fuzz-shop': true },
  };
  validBodies = {
    createProduct: product,
    updateProduct: product,
    createBrand: { name: 'Fuzzbrand', slug: 'fuzzbrand' },
    updateBrand: { name: 'Fuzzbrand renamed', slug: 'fuzzbrand-renamed' },
    batchGetProducts: { ids: ids.products.slice(0, 3) },
    checkDuplicateProducts: { productCode },
    findExistingProductsForPreview: { productCodes: [productCode, 'NOT-THERE'] },
    createWebChannel: { slug: 'fuzz-shop', name: 'Fuzz shop' },
    updateWebChannel: { slug: 'fuzz-shop', name: 'Fuzz shop renamed' },
    createM2MClient: { clientName: 'fuzz created', scopes: ['products.read'] },
    updateM2MClient: { clientName: 'fuzz renamed' },
  };
  const search = await stack.api('/products/search?size=2', { token: m2m });
  const list = await stack.api('/products?limit=2', { token: m2m });
  realCursors = {
    syncToken: String((search.body as { syncToken: string }).syncToken),
    lastKey: String((list.body as { lastKey: string }).lastKey),
  };
  await guard.rebase();
});
afterAll(async () => {
  report(`answers by status: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
  await guard?.close();
  await stack?.stop();
});

const defaultPathValues = (): Record<string, string> => ({
  productId: ids.products[2] ?? 'x',
  id: ids.brands[1] ?? 'x',
  clientId: ids.clients[0] ?? 'x',
  clientsPath: 'abc',
});

function pathOf(operation: CatalogOperation, values: Record<string, string> = {}): string {
  const all = { ...defaultPathValues(), ...values };
  return operation.path.replaceAll(/\{([^}]+)\}/g, (_, name: string) => all[name] ?? 'x');
}

/** A valid caller for the operation: none on public routes, an admin or an M2M token elsewhere. */
function validCaller(operation: CatalogOperation, preferM2m: boolean): Record<string, string> {
  if (operation.access.kind === 'public') return {};
  const token = preferM2m && operation.access.kind !== 'admin' ? tokens.m2m : tokens.admin;
  return { authorization: `Bearer ${token}` };
}

function validBody(operation: CatalogOperation): Pick<RawCall, 'body' | 'headers'> {
  const body = validBodies[operation.operationId];
  if (body === undefined) return {};
  return { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
}

/**
 * Sends one request and checks the answer against the contract and the store; `extra` adds the
 * property's own expectations. Throws with the request, the answer and every problem found.
 */
async function exchange(
  operation: CatalogOperation,
  call: RawCall,
  extra: (answer: RawAnswer) => string[] = () => [],
): Promise<RawAnswer> {
  // undici writes every later request body on a connection that carried a GET or DELETE with a body
  // 40 ms late (Nagle against delayed ACK; node:https does not): such calls get a connection of their own.
  const oneOff = call.body !== undefined && (call.method === 'GET' || call.method === 'DELETE');
  const dispatcher = oneOff ? new Agent({ connect: { ca: stack.ca } }) : stack.dispatcher;
  const answer = await rawCall(stack.baseUrl, dispatcher, call).finally(() =>
    oneOff ? dispatcher.close() : undefined,
  );
  statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  const problems = catalogReplyProblems(operation.operationId, answer);
  problems.push(...extra(answer));
  const changes = await guard.after(answer.status < 400);
  if (changes.length > 0)
    problems.push(`stored data changed on a rejected request:\n    ${changes.join('\n    ')}`);
  if (problems.length > 0) {
    throw new Error(
      `${operation.operationId}: ${describeCall(call)}\n  → ${answer.status} ${answer.text.slice(0, 400)}\n  ` +
        problems.join('\n  '),
    );
  }
  return answer;
}

const operationArb = (list: readonly CatalogOperation[]) => fc.constantFrom(...list);

describe('bad input on every route of the catalog API (fuzz)', () => {
  it('[7.1 500][7.2 message][7.2 no data] random and malformed query strings and headers: no 5xx, documented bodies, nothing stored changes', async () => {
    const cases = operationArb(OPERATIONS).chain((operation) =>
      fc.record({
        operation: fc.constant(operation),
        query: fc.oneof(
          { weight: 5, arbitrary: queryString(queryParameters(operation.path, operation.method)) },
          // Real cursors, tampered: a 400 INVALID_SYNC_TOKEN / VALIDATION_ERROR, never a 500.
          {
            weight: 1,
            arbitrary: fc
              .tuple(
                fc.constantFrom('syncToken', 'lastKey'),
                fc.nat(),
                fc.constantFrom('A', '_', '-', '%2B', ''),
              )
              .map(([name, at, replacement]) => {
                const real = name === 'syncToken' ? realCursors.syncToken : realCursors.lastKey;
                const index = at % real.length;
                const value = `${real.slice(0, index)}${replacement}${real.slice(index + 1)}`;
                return `${name}=${encodeURIComponent(value)}`;
              }),
          },
        ),
        m2m: fc.boolean(),
        headers: extraHeaders,
      }),
    );
    await runProperty('query strings and headers', cases, async ({ operation, query, m2m, headers }) => {
      const body = validBody(operation);
      await exchange(operation, {
        method: operation.method,
        path: `${pathOf(operation)}?${query}`,
        headers: { ...headers, ...validCaller(operation, m2m), ...body.headers },
        ...(body.body === undefined ? {} : { body: body.body }),
      });
    });
  });

  it('[5 rule 1][5 rule 7][7.1 401][7.1 403] Authorization variants: malformed, expired, foreign, unsigned and wrong-type tokens get 401, wrong roles 403, never a 2xx', async () => {
    const cases = fc.record({ operation: operationArb(OPERATIONS), caller: fc.constantFrom(...callerList) });
    await runProperty('Authorization headers', cases, async ({ operation, caller }) => {
      const body = validBody(operation);
      const expected = expectedAuthStatus(caller.kind, operation.access, operation.path);
      await exchange(
        operation,
        {
          method: operation.method,
          path: pathOf(operation),
          headers: {
            ...(caller.header === undefined ? {} : { authorization: caller.header }),
            ...body.headers,
          },
          ...(body.body === undefined ? {} : { body: body.body }),
        },
        (answer) => {
          if (expected !== undefined && answer.status !== expected) {
            return [`${caller.name}: expected ${expected}, got ${answer.status}`];
          }
          if (expected === undefined && (answer.status === 401 || answer.status === 403)) {
            return [`${caller.name} is a valid caller here, but got ${answer.status}`];
          }
          return [];
        },
      );
    });
  });

  it('[7.1 400][7.1 500][7.2 message][7.2 no data] malformed, mistyped, deeply nested, huge and non-JSON bodies: no 5xx, documented bodies, nothing stored changes', async () => {
    // Mostly the routes that take a body; the others must ignore whatever body comes.
    const cases = fc
      .oneof(
        { weight: 3, arbitrary: operationArb(WITH_BODY) },
        { weight: 1, arbitrary: operationArb(OPERATIONS) },
      )
      .chain((operation) =>
        fc.record({
          operation: fc.constant(operation),
          body: bodyCase(validBodies[operation.operationId] ?? { any: 'thing' }),
        }),
      );
    await runProperty('bodies', cases, async ({ operation, body }) => {
      await exchange(operation, {
        method: operation.method,
        path: pathOf(operation),
        headers: {
          ...validCaller(operation, false),
          ...(body.contentType === undefined ? {} : { 'content-type': body.contentType }),
        },
        ...(body.body === undefined ? {} : { body: body.body }),
      });
    });
  });

  it('[7.1 400][7.1 404][7.1 500] malformed, encoded and unknown path parameters: no 5xx, documented bodies, nothing stored changes', async () => {
    const cases = operationArb(WITH_PATH_PARAMETERS).chain((operation) =>
      fc.record({
        operation: fc.constant(operation),
        value: pathParameter([...ids.products, ...ids.brands, ...ids.clients]),
        m2m: fc.boolean(),
      }),
    );
    await runProperty('path parameters', cases, async ({ operation, value, m2m }) => {
      const name = /\{([^}]+)\}/.exec(operation.path)?.[1] ?? '';
      const body = validBody(operation);
      await exchange(operation, {
        method: operation.method,
        path: pathOf(operation, { [name]: value }),
        headers: { ...validCaller(operation, m2m), ...body.headers },
        ...(body.body === undefined ? {} : { body: body.body }),
      });
    });
  });

  it('[7.1 500][7.1 401][7.1 403][7.2 message] the answers the fuzz once found wrong, replayed: each is documented and stores nothing', async () => {
    const operation = (id: CatalogOperationId) => {
      const found = CATALOG_OPERATIONS.get(id);
      if (found === undefined) throw new Error(`no operation ${id}`);
      return found;
    };
    const admin = { authorization: `Bearer ${tokens.admin}`, 'content-type': 'application/json' };
    const nonAdmin =
      callerList.find((caller) => caller.name === 'ID token without the admin group')?.header ?? '';
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const [revokedClient] = await guard.reader.all(
      "SELECT client_id FROM m2m_clients WHERE status = 'revoked' LIMIT 1",
    );
    const cases: Array<[CatalogOperationId, RawCall, number]> = [
      // Was a 500 (the validator's structuredClone ran out of stack).
      ['createProduct', { method: 'POST', path: '/products', headers: admin, body: deep }, 400],
      [
        'updateM2MClient',
        { method: 'PUT', path: `/oauth/clients/${ids.clients[0]}`, headers: admin, body: deep },
        400,
      ],
      // Was a 400 with `details`, which the client-management error body does not have.
      [
        'updateM2MClient',
        { method: 'PUT', path: `/oauth/clients/${ids.clients[0]}`, headers: admin, body: '{"cl' },
        400,
      ],
      ['createM2MClient', { method: 'POST', path: '/oauth/clients', headers: admin, body: '{"cl' }, 400],
      // Was a 400 before authentication (the body was parsed first), which these routes do not document.
      [
        'postClientsRoot',
        { method: 'POST', path: '/clients', headers: { 'content-type': 'application/json' }, body: '{' },
        401,
      ],
      [
        'createProduct',
        { method: 'POST', path: '/products', headers: { 'content-type': 'application/json' }, body: '{' },
        401,
      ],
      [
        'getSecretRotationInstructions',
        { method: 'POST', path: `/oauth/clients/${ids.clients[0]}/rotate-secret`, headers: admin, body: '{' },
        200,
      ],
      // Was a 415 on a route that takes no body.
      [
        'searchProducts',
        {
          method: 'GET',
          path: '/products/search?size=1',
          headers: { ...admin, 'content-type': 'text/plain' },
          body: 'x',
        },
        200,
      ],
      // Was `code` instead of `error` on a 403 that is not the route's own 400.
      ['searchBrands', { method: 'GET', path: '/brands/search', headers: { authorization: nonAdmin } }, 403],
      // Was a 400 with `details` (fixed alongside, in client-lifecycle.ts).
      [
        'updateM2MClient',
        {
          method: 'PUT',
          path: `/oauth/clients/${String(revokedClient?.client_id)}`,
          headers: admin,
          body: '{"clientName":"renamed"}',
        },
        400,
      ],
    ];
    for (const [id, call, status] of cases) {
      const answer = await exchange(operation(id), call);
      expect(answer.status, describeCall(call)).toBe(status);
    }
  });

  it('GET /health answers the body the document gives (HealthStatus)', async () => {
    const answer = await rawCall(stack.baseUrl, stack.dispatcher, { method: 'GET', path: '/health' });
    expect(catalogReplyProblems('getHealth', answer)).toEqual([]);
  });

  it('[7.1 400] an over-size body and a body that is not JSON get a status the spec and the document list for the route', async () => {
    const undocumented: string[] = [];
    for (const operation of WITH_BODY) {
      for (const [label, headers, body] of [
        ['over 1 MB', { 'content-type': 'application/json' }, `{"name":"${'x'.repeat(1_100_000)}"}`],
        ['text/plain', { 'content-type': 'text/plain' }, JSON.stringify(validBodies[operation.operationId])],
      ] as const) {
        const answer = await rawCall(stack.baseUrl, stack.dispatcher, {
          method: operation.method,
          path: pathOf(operation),
          headers: { ...validCaller(operation, false), ...headers },
          body,
        });
        expect(await guard.after(answer.status < 400)).toEqual([]);
        const issues = catalogReplyProblems(operation.operationId, answer);
        if (issues.length > 0)
          undocumented.push(`${operation.operationId} ${label} → ${answer.status}: ${issues.join('; ')}`);
      }
    }
    expect(undocumented).toEqual([]);
  });
});
