// Spec part 7: status codes, the error body, the codes, and the retry classification as the SDK applies
// it against the real servers. A stack whose search budget is 1 ms gives the 504 (no search can answer
// within it: the first one even waits for the worker pool to start); faults in the database of a third
// (an index or the full-text table gone, a table gone) give the 503s and the generic 500. The search
// faults are made where the API searches (the SQLite file, or on PostgreSQL the API's search
// replica), the table fault where the records are.
import type { ProductSearchResponse } from '@catalog/contracts';
import {
  BadRequestError,
  type CatalogClient,
  ForbiddenError,
  NotFoundError,
  ServerError,
} from '@catalog/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2EStack, startE2EStack } from '../support/stack.ts';
import {
  openSqliteConnection,
  openStoreConnection,
  type StoreConnection,
  searchDatabasePath,
} from '../support/store-connection.ts';
import { type Call, contractCall } from './support/contract.ts';
import { adminToken, type M2MCaller, m2mCaller, sdkClient } from './support/people.ts';

let stack: E2EStack;
let call: Call;
let admin: string;
let reader: M2MCaller;
let brandsOnly: M2MCaller;

let slow: E2EStack;
let slowCall: Call;
let slowReader: M2MCaller;

let faulty: E2EStack;
let faultyCall: Call;
let faultyReader: M2MCaller;
let faultyClient: CatalogClient;
let knownCode: string;

const settled = (path: string) => faultyCall(path, { token: faultyReader.token });

beforeAll(async () => {
  [stack, slow, faulty] = await Promise.all([
    startE2EStack({ demoProducts: 200 }),
    startE2EStack({ demoProducts: 200, env: { SEARCH_TIMEOUT_MS: '1' } }),
    startE2EStack({ demoProducts: 200 }),
  ]);
  call = contractCall(stack);
  slowCall = contractCall(slow);
  faultyCall = contractCall(faulty);
  admin = await adminToken(stack);
  [reader, brandsOnly, slowReader, faultyReader] = await Promise.all([
    m2mCaller(stack, ['products.read', 'brands.read']),
    m2mCaller(stack, ['brands.read']),
    m2mCaller(slow, ['products.read']),
    m2mCaller(faulty, ['products.read', 'brands.read']),
  ]);
  faultyClient = sdkClient(faulty, faultyReader);
  const page = await settled('/products/search?size=1&sort=code');
  knownCode = (page.body as ProductSearchResponse).data[0]?.productCode as string;
});
afterAll(async () => {
  await faultyClient?.close();
  await Promise.all([stack?.stop(), slow?.stop(), faulty?.stop()]);
});

/** A sample of every kind of error the API gives a client, each validated by `call`. */
async function errorSample() {
  return Promise.all([
    call('/products/search?size=101', { token: reader.token }),
    call(`/products/search?q=${'x'.repeat(300)}`, { token: reader.token }),
    call('/products/search?sort=nope', { token: reader.token }),
    call('/products/search?sort=name&order=up', { token: reader.token }),
    call('/products/search?syncToken=garbage', { token: reader.token }),
    call('/products/search?updatedAfter=not-a-date', { token: reader.token }),
    call('/products/search?from=-1', { token: reader.token }),
    call('/products/00000000-0000-4000-8000-000000000000', { token: reader.token }),
    call('/brands/unknown-brand', { token: reader.token }),
    call('/brands/search?size=500', { token: reader.token }),
    call('/products/search'),
    call('/products/search', { token: brandsOnly.token }),
    call('/oauth/clients', { token: reader.token }),
    call('/oauth/clients', { method: 'POST', token: admin, body: { clientName: 'x', scopes: [] } }),
    call('/no/such/route', { token: reader.token }),
  ]);
}

describe('7.1 status codes', () => {
  it('[7.1 400] an invalid parameter, body or cursor is 400', async () => {
    const replies = await Promise.all([
      call('/products/search?size=abc', { token: reader.token }),
      call('/products/search?includeArchived=maybe', { token: reader.token }),
      call('/products/search?syncToken=abc', { token: reader.token }),
      call('/oauth/clients', { method: 'POST', token: admin, body: { clientName: 'ok name' } }),
      call('/oauth/clients', {
        method: 'POST',
        token: admin,
        headers: { 'content-type': 'application/json' },
        body: '{"clientName": ' as unknown,
      }),
    ]);
    for (const reply of replies) expect(reply.status, reply.text).toBe(400);
  });

  it('[7.1 404][7.3 NOT_FOUND] an unknown resource is 404 NOT_FOUND', async () => {
    const replies = await Promise.all([
      call('/products/00000000-0000-4000-8000-000000000000', { token: reader.token }),
      call('/brands/unknown-brand', { token: reader.token }),
      call(`/oauth/clients/${'N'.repeat(26)}`, { method: 'PUT', token: admin, body: { clientName: 'abc' } }),
    ]);
    for (const reply of replies) {
      expect(reply.status).toBe(404);
      expect(reply.body).toMatchObject({ error: 'NOT_FOUND' });
    }
  });
});

describe('7.2 the error body', () => {
  it('[7.2 message][7.2 no data][4.4 step 5] every error body is a JSON object with a string message and no data', async () => {
    for (const reply of await errorSample()) {
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(typeof reply.body, reply.text).toBe('object');
      expect(typeof (reply.body as { message: unknown }).message).toBe('string');
      expect(reply.body).not.toHaveProperty('data');
    }
  });

  it('[7.2 error][7.2 requestId][7.2 details][7.3 VALIDATION_ERROR] the service adds a code, the request id and, for VALIDATION_ERROR, details {field, reason}', async () => {
    const cases: [string, string][] = [
      ['/products/search?size=101', 'size'],
      ['/products/search?from=-1', 'from'],
      ['/products/search?from=9950&size=100', 'from'],
      ['/products/search?updatedAfter=yesterday', 'updatedAfter'],
      ['/products/search?displayOnWeb=yes', 'displayOnWeb'],
    ];
    for (const [path, field] of cases) {
      const reply = await call(path, { token: reader.token });
      expect(reply.status, path).toBe(400);
      const body = reply.body as {
        error: string;
        requestId: string;
        details: { field: string; reason: string };
      };
      expect(body.error, path).toBe('VALIDATION_ERROR');
      expect(body.details.field, path).toBe(field);
      expect(typeof body.details.reason).toBe('string');
      expect(body.requestId).toBe(reply.headers['x-request-id']);
    }
  });

  it('[7.2 code][7.3 VALIDATION_ERROR] GET /brands/search answers with code (not error) and a details object', async () => {
    const reply = await call('/brands/search?size=500', { token: reader.token });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'size' } });
    expect(reply.body).not.toHaveProperty('error');
  });

  it("[7.2 gateway bodies][7.3 FORBIDDEN] gateway rejections carry only message: Unauthorized (401), Forbidden (403 for a missing scope); a route denied to M2M tokens is the service's own 403: Admin role required, error FORBIDDEN and the request id", async () => {
    const [unauthorized, forbidden, denied] = await Promise.all([
      call('/brands'),
      call('/products/search', { token: brandsOnly.token }),
      call('/brands/overview', { token: reader.token }),
    ]);
    expect(unauthorized.body).toEqual({ message: 'Unauthorized' });
    expect(forbidden.body).toEqual({ message: 'Forbidden' });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({
      message: 'Admin role required',
      error: 'FORBIDDEN',
      requestId: denied.headers['x-request-id'],
    });
  });
});

describe('7.4 retry classification, as the SDK applies it to real answers', () => {
  it('[7.4 403][7.1 403] 403 is never retried (ForbiddenError after one attempt)', async () => {
    const client = sdkClient(stack, brandsOnly, { scopes: ['brands.read'] });
    try {
      const error = await client.products.search({ size: 1 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ForbiddenError);
      expect(error).toMatchObject({ status: 403, attempts: 1, retryable: false });
    } finally {
      await client.close();
    }
  });

  it('[7.4 other 4xx] any other 4xx means fix the request: not retried', async () => {
    const client = sdkClient(stack, reader);
    try {
      const tooBig = await client.products.search({ size: 101 }).catch((caught: unknown) => caught);
      expect(tooBig).toBeInstanceOf(BadRequestError);
      expect(tooBig).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', attempts: 1, retryable: false });
      const missing = await client.products
        .get('00000000-0000-4000-8000-000000000000')
        .catch((caught: unknown) => caught);
      expect(missing).toBeInstanceOf(NotFoundError);
      expect(missing).toMatchObject({ attempts: 1, retryable: false });
    } finally {
      await client.close();
    }
  });
});

describe('7.1 5xx, 7.3 completeness codes and 7.4 5xx: a 1 ms search time budget and a damaged database', () => {
  const damage = async (db: StoreConnection, statement: string) => {
    try {
      await db.exec(statement);
    } finally {
      await db.close();
    }
  };
  const damageSearch = (statement: string) =>
    damage(openSqliteConnection(searchDatabasePath(faulty.location)), statement);
  const damageRecords = async (statement: Record<StoreConnection['engine'], string>) => {
    const db = await openStoreConnection(faulty.location);
    await damage(db, statement[db.engine]);
  };

  it('[7.1 504][7.3 SEARCH_TIMEOUT][4.1 /products/search errors] a query over its time budget is 504 SEARCH_TIMEOUT, never a partial page', async () => {
    // SEARCH_TIMEOUT_MS=1: the budget covers queueing, and the first search of the stack waits for the
    // search workers to start, which takes far longer than 1 ms.
    const reply = await slowCall('/products/search?size=100&includeAggregations=true&q=drill&sort=price', {
      token: slowReader.token,
    });
    expect(reply.status).toBe(504);
    expect(reply.body).toMatchObject({ error: 'SEARCH_TIMEOUT' });
    expect(reply.body).not.toHaveProperty('data');
  });

  it('[7.1 503][7.3 SEARCH_INCOMPLETE][4.1 /products/search errors][7.4 5xx] a search that cannot complete is 503 SEARCH_INCOMPLETE; the SDK retries it three times in all', async () => {
    await damageSearch('DROP TABLE product_fts');
    const reply = await settled('/products/search?q=drill');
    expect(reply.status).toBe(503);
    expect(reply.body).toMatchObject({ error: 'SEARCH_INCOMPLETE' });
    expect(reply.body).not.toHaveProperty('data');
    const retried = await faultyClient.products.search({ q: 'drill' }).catch((caught: unknown) => caught);
    expect(retried).toBeInstanceOf(ServerError);
    expect(retried).toMatchObject({ status: 503, code: 'SEARCH_INCOMPLETE', attempts: 3, retryable: true });
  });

  it('[7.1 503][7.3 IDENTIFIER_LOOKUP_INCOMPLETE] an identifier lookup that cannot complete is 503 IDENTIFIER_LOOKUP_INCOMPLETE', async () => {
    await damageSearch('DROP INDEX products_product_code_key; DROP INDEX products_erp_code_key;');
    const reply = await settled(`/products/search?q=${encodeURIComponent(knownCode)}`);
    expect(reply.status).toBe(503);
    expect(reply.body).toMatchObject({ error: 'IDENTIFIER_LOOKUP_INCOMPLETE' });
  });

  it('[7.1 500][7.3 INTERNAL_ERROR][7.2 error][7.4 5xx] an unexpected failure is a generic 500 without a code; the SDK retries it three times in all', async () => {
    await damageRecords({
      sqlite: 'PRAGMA foreign_keys = OFF; DROP TABLE brands;',
      postgres: 'DROP TABLE brands CASCADE',
    });
    const reply = await faultyCall('/brands', { token: faultyReader.token });
    expect(reply.status).toBe(500);
    expect(Object.keys(reply.body as object).sort()).toEqual(['message', 'requestId']);
    expect(reply.text).not.toMatch(/no such table|SQLITE|at \//i);
    const retried = await faultyClient.brands.list().catch((caught: unknown) => caught);
    expect(retried).toBeInstanceOf(ServerError);
    expect(retried).toMatchObject({ status: 500, attempts: 3, retryable: true });
  });
});
