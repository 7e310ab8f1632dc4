import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.ts';

let stack: Stack;
let token: string;
let archivedBrandId: string;

beforeAll(async () => {
  stack = await startStack({ demoProducts: 40 });
  token = (await stack.m2mToken(['brands.read'])).token;
  const archived = await stack.store.brands.create({ name: 'Retired Tools Ltd' });
  archivedBrandId = (await stack.store.brands.archive(archived.id)).id;
});
afterAll(() => stack?.stop());

describe('GET /brands (spec 4.1)', () => {
  it('returns a raw JSON array of {id, name, slug}, active brands only by default', async () => {
    const reply = await stack.call<{ id: string }[]>('/brands', { token, operation: 'listBrands' });
    expect(reply.status).toBe(200);
    expect(Array.isArray(reply.body)).toBe(true);
    for (const brand of reply.body) expect(Object.keys(brand).sort()).toEqual(['id', 'name', 'slug']);
    expect(reply.body.map((b) => b.id)).not.toContain(archivedBrandId);
  });

  it('includes archived brands when includeArchived=true', async () => {
    const reply = await stack.call<{ id: string }[]>('/brands?includeArchived=true', {
      token,
      operation: 'listBrands',
    });
    expect(reply.body.map((b) => b.id)).toContain(archivedBrandId);
  });

  it('has no paging parameters: limit and lastKey are ignored', async () => {
    const all = await stack.call<unknown[]>('/brands', { token });
    const limited = await stack.call<unknown[]>('/brands?limit=1&lastKey=abc', { token });
    expect(limited.body).toEqual(all.body);
  });
});

describe('GET /brands/search (spec 4.1)', () => {
  it('answers {data, pagination {total, from, size}, meta} with no syncToken, hasMore or totalIsLowerBound', async () => {
    const reply = await stack.call<Record<string, unknown>>('/brands/search?size=2', {
      token,
      operation: 'searchBrands',
    });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['data', 'meta', 'pagination']);
    expect(Object.keys(reply.body.pagination as object).sort()).toEqual(['from', 'size', 'total']);
    expect(reply.body.data).toHaveLength(2);
  });

  it('matches q against the brand name', async () => {
    const [brand] = (await stack.store.brands.list()) ?? [];
    const word = brand?.name.split(' ')[0] ?? '';
    const reply = await stack.call<{ data: { name: string }[] }>(
      `/brands/search?q=${encodeURIComponent(word)}`,
      { token },
    );
    expect(reply.body.data.map((b) => b.name)).toContain(brand?.name);
  });

  it('reports errors with `code` instead of `error`, with details (spec 7.2)', async () => {
    const reply = await stack.call('/brands/search?size=500', { token, operation: 'searchBrands' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'size' } });
    expect(reply.body).not.toHaveProperty('error');
  });
});

describe('GET /brands/{id} (spec 4.1)', () => {
  it('returns one brand', async () => {
    const [brand] = await stack.store.brands.list();
    const reply = await stack.call(`/brands/${brand?.id}`, { token, operation: 'getBrand' });
    expect(reply.body).toEqual({ id: brand?.id, name: brand?.name, slug: brand?.slug });
  });

  it('answers 404 NOT_FOUND for an unknown id', async () => {
    const reply = await stack.call('/brands/no-such-brand', { token, operation: 'getBrand' });
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ error: 'NOT_FOUND' });
  });
});
