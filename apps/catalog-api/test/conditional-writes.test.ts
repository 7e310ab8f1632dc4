import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Reply, type Stack, startStack } from './support/stack.ts';

type Json = Record<string, unknown>;

let stack: Stack;
let admin: string;
let reader: string;

beforeAll(async () => {
  stack = await startStack();
  admin = await stack.idToken(['admin']);
  reader = (await stack.m2mToken(['products.read'])).token;
}, 180_000);
afterAll(() => stack?.stop());

const MERGE_PATCH = 'application/merge-patch+json';

const call = (path: string, method: string, body?: unknown, headers: Record<string, string> = {}) =>
  stack.call<Json>(path, { method, token: admin, headers, ...(body === undefined ? {} : { body }) });

const etag = (reply: Reply<unknown>) => String(reply.headers.etag);

async function createProduct(fields: Json): Promise<{ id: string; etag: string }> {
  const reply = await call('/products', 'POST', { name: 'Conditional', ...fields });
  expect(reply.status, reply.text).toBe(201);
  return { id: String(reply.body.id), etag: etag(reply) };
}

const adminRead = (id: string) =>
  stack.call<Json>(`/admin/products/${id}`, { token: admin, operation: 'getAdminProduct' });

function expectStale(reply: Reply<Json>, currentTag: string): void {
  expect(reply.status, reply.text).toBe(412);
  expect(reply.body).toMatchObject({ error: 'PRECONDITION_FAILED', requestId: expect.any(String) });
  expect(reply.body).not.toHaveProperty('data');
  expect(etag(reply)).toBe(currentTag);
}

describe('admin reads carry the record and its ETag (issue: admin writes that never lose data)', () => {
  it('GET /admin/products/{id} returns every internal field and a strong ETag; GET /products/{id} stays the allowlist without one', async () => {
    const { id, etag: created } = await createProduct({
      productCode: 'CW-READ',
      internalNote: 'do not quote below cost',
      costPrice: 42.33,
      marginPercent: 53,
    });
    const read = await adminRead(id);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      internalNote: 'do not quote below cost',
      costPrice: 42.33,
      marginPercent: 53,
    });
    expect(etag(read)).toMatch(/^"[^"]+"$/);
    expect(etag(read)).toBe(created);
    const integrators = await stack.call<Json>(`/products/${id}`, { token: reader, operation: 'getProduct' });
    expect(integrators.body).not.toHaveProperty('internalNote');
    expect(integrators.headers.etag).toBeUndefined();
  });

  it('the admin read is for administrators only: an M2M token gets 403', async () => {
    const { id } = await createProduct({ productCode: 'CW-M2M' });
    const reply = await stack.call(`/admin/products/${id}`, { token: reader });
    expect(reply.status).toBe(403);
  });
});

describe('conditional product writes: If-Match, 412 and 428', () => {
  it('of two editors who read the same version, the first PUT lands and the second gets 412 with the current ETag', async () => {
    const { id, etag: read } = await createProduct({ productCode: 'CW-RACE' });
    const first = await call(
      `/products/${id}`,
      'PUT',
      { productCode: 'CW-RACE', name: 'First' },
      { 'If-Match': read },
    );
    expect(first.status, first.text).toBe(200);
    expect(etag(first)).not.toBe(read);
    const second = await call(
      `/products/${id}`,
      'PUT',
      { productCode: 'CW-RACE', name: 'Second' },
      { 'If-Match': read },
    );
    expectStale(second, etag(first));
    expect((await adminRead(id)).body.name).toBe('First');
  });

  it('two PUTs sent at once with the same ETag end in one 200 and one 412', async () => {
    const { id, etag: read } = await createProduct({ productCode: 'CW-BOTH' });
    const replies = await Promise.all(
      ['Left', 'Right'].map((name) =>
        call(`/products/${id}`, 'PUT', { productCode: 'CW-BOTH', name }, { 'If-Match': read }),
      ),
    );
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 412]);
    const winner = replies.find((reply) => reply.status === 200) as Reply<Json>;
    expect((await adminRead(id)).body.name).toBe(winner.body.name);
  });

  it('a PUT or PATCH without If-Match is refused with 428 and changes nothing', async () => {
    const { id } = await createProduct({ productCode: 'CW-428' });
    const before = (await adminRead(id)).body;
    const put = await call(`/products/${id}`, 'PUT', { productCode: 'CW-428', name: 'Unconditional' });
    expect(put.status).toBe(428);
    expect(put.body).toMatchObject({ error: 'PRECONDITION_REQUIRED' });
    const patch = await call(
      `/products/${id}`,
      'PATCH',
      { name: 'Unconditional' },
      { 'Content-Type': MERGE_PATCH },
    );
    expect(patch.status).toBe(428);
    expect((await adminRead(id)).body).toEqual(before);
  });

  it('a tag of another product, a weak tag or a malformed one matches nothing: 412', async () => {
    const one = await createProduct({ productCode: 'CW-ONE' });
    const other = await createProduct({ productCode: 'CW-OTHER' });
    for (const tag of [other.etag, `W/${one.etag}`, '"1"', 'nonsense']) {
      const reply = await call(
        `/products/${one.id}`,
        'PUT',
        { productCode: 'CW-ONE', name: 'Never' },
        { 'If-Match': tag },
      );
      expectStale(reply, one.etag);
    }
    const listed = await call(
      `/products/${one.id}`,
      'PUT',
      { productCode: 'CW-ONE', name: 'Listed' },
      {
        'If-Match': `${other.etag}, ${one.etag}`,
      },
    );
    expect(listed.status, listed.text).toBe(200);
  });

  it('If-Match: * writes over whatever is stored; for a product that does not exist the answer is 404', async () => {
    const { id } = await createProduct({ productCode: 'CW-STAR' });
    const star = await call(
      `/products/${id}`,
      'PUT',
      { productCode: 'CW-STAR', name: 'Star' },
      { 'If-Match': '*' },
    );
    expect(star.status).toBe(200);
    const missing = await call(
      '/products/no-such-product',
      'PUT',
      { productCode: 'X', name: 'X' },
      { 'If-Match': '*' },
    );
    expect(missing.status).toBe(404);
  });

  it('PATCH applies a merge patch: named fields change, null resets a field to its default, the rest stays', async () => {
    const { id, etag: read } = await createProduct({
      productCode: 'CW-PATCH',
      colour: 'red',
      internalNote: 'note',
      costPrice: 10,
      webVisibility: {},
    });
    const before = (await adminRead(id)).body;
    const reply = await call(
      `/products/${id}`,
      'PATCH',
      { costPrice: 12.5, internalNote: null },
      { 'Content-Type': MERGE_PATCH, 'If-Match': read },
    );
    expect(reply.status, reply.text).toBe(200);
    const after = (await adminRead(id)).body;
    expect({ ...after, updatedAt: before.updatedAt }).toEqual({
      ...before,
      costPrice: 12.5,
      internalNote: '',
    });
    expect(etag(reply)).toBe(etag(await adminRead(id)));
    expectStale(
      await call(
        `/products/${id}`,
        'PATCH',
        { colour: 'blue' },
        { 'Content-Type': MERGE_PATCH, 'If-Match': read },
      ),
      etag(reply),
    );
  });

  it('PATCH takes application/merge-patch+json only (415 for application/json), and a patched record that is invalid is 400', async () => {
    const { id, etag: read } = await createProduct({ productCode: 'CW-MEDIA' });
    const json = await call(`/products/${id}`, 'PATCH', { colour: 'blue' }, { 'If-Match': read });
    expect(json.status).toBe(415);
    const invalid = await call(
      `/products/${id}`,
      'PATCH',
      { name: null },
      { 'Content-Type': MERGE_PATCH, 'If-Match': read },
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ error: 'VALIDATION_ERROR' });
    expect(etag(await adminRead(id))).toBe(read);
  });

  it('DELETE archives without If-Match, and with a stale one is refused (412) and archives nothing', async () => {
    const { id, etag: read } = await createProduct({ productCode: 'CW-ARCHIVE' });
    const changed = await call(
      `/products/${id}`,
      'PATCH',
      { colour: 'green' },
      { 'Content-Type': MERGE_PATCH, 'If-Match': read },
    );
    const stale = await call(`/products/${id}`, 'DELETE', undefined, { 'If-Match': read });
    expectStale(stale, etag(changed));
    expect((await adminRead(id)).body.archived).toBe(false);
    const archived = await call(`/products/${id}`, 'DELETE');
    expect(archived.status).toBe(200);
    expect(archived.body.archived).toBe(true);
  });

  it('the audit trail records the version each write replaced', async () => {
    const { id, etag: read } = await createProduct({ productCode: 'CW-AUDIT' });
    await call(`/products/${id}`, 'PUT', { productCode: 'CW-AUDIT', name: 'Audited' }, { 'If-Match': read });
    const events = await stack.call<{ events: Json[] }>(`/audit-events?targetId=${id}`, { token: admin });
    const replaced = events.body.events.find((event) => event.action === 'product.replace');
    expect(replaced?.details).toMatchObject({ replacedVersion: 1 });
  });
});

describe('conditional brand, client and web-channel writes', () => {
  it('brands: GET /admin/brands/{id} gives the ETag, PUT needs it (428), a stale one is 412, PATCH merges', async () => {
    const created = await call('/brands', 'POST', { name: 'Conditional brand', slug: 'conditional-brand' });
    expect(created.status, created.text).toBe(201);
    const id = String(created.body.id);
    const read = await stack.call<Json>(`/admin/brands/${id}`, { token: admin, operation: 'getAdminBrand' });
    expect(read.status, read.text).toBe(200);
    expect(etag(read)).toBe(etag(created));
    const body = { name: 'Conditional brand', slug: String(created.body.slug) };
    expect((await call(`/brands/${id}`, 'PUT', body)).status).toBe(428);
    const archived = await call(
      `/brands/${id}`,
      'PATCH',
      { archived: true },
      {
        'Content-Type': MERGE_PATCH,
        'If-Match': etag(read),
      },
    );
    expect(archived.status, archived.text).toBe(200);
    expect(archived.body).toMatchObject({ name: 'Conditional brand', archived: true });
    expectStale(await call(`/brands/${id}`, 'PUT', body, { 'If-Match': etag(read) }), etag(archived));
    // A PUT without `archived` keeps the stored flag.
    const renamed = await call(
      `/brands/${id}`,
      'PUT',
      { ...body, name: 'Renamed brand' },
      { 'If-Match': etag(archived) },
    );
    expect(renamed.body).toMatchObject({ name: 'Renamed brand', archived: true });
  });

  it('clients: GET /oauth/clients/{id} gives the ETag; PUT and DELETE honour If-Match (412) and work without it (spec 4.2)', async () => {
    const created = await call('/oauth/clients', 'POST', {
      clientName: 'Conditional client',
      scopes: ['products.read'],
    });
    const clientId = String(created.body.clientId);
    const read = await stack.call<Json>(`/oauth/clients/${clientId}`, {
      token: admin,
      operation: 'getM2MClient',
    });
    expect(read.body).not.toHaveProperty('clientSecret');
    const first = await call(
      `/oauth/clients/${clientId}`,
      'PUT',
      { scopes: ['brands.read'] },
      { 'If-Match': etag(read) },
    );
    expect(first.status, first.text).toBe(200);
    expectStale(
      await call(
        `/oauth/clients/${clientId}`,
        'PUT',
        { clientName: 'Stale name' },
        { 'If-Match': etag(read) },
      ),
      etag(first),
    );
    expectStale(
      await call(`/oauth/clients/${clientId}`, 'DELETE', undefined, { 'If-Match': etag(read) }),
      etag(first),
    );
    const unconditional = await call(`/oauth/clients/${clientId}`, 'PUT', { description: 'no precondition' });
    expect(unconditional.status).toBe(200);
    const patched = await call(
      `/oauth/clients/${clientId}`,
      'PATCH',
      { description: null },
      { 'Content-Type': MERGE_PATCH },
    );
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      clientName: 'Conditional client',
      scopes: ['brands.read'],
      description: '',
    });
  });

  it('web channels: the list carries the registry ETag; a create or rename since makes it stale (412)', async () => {
    const list = await call('/company-settings/web-channels', 'GET');
    const tag = etag(list);
    const created = await call(
      '/company-settings/web-channels',
      'POST',
      { slug: 'cw-shop', name: 'CW shop' },
      { 'If-Match': tag },
    );
    expect(created.status, created.text).toBe(201);
    const stale = await call(
      '/company-settings/web-channels',
      'PUT',
      { slug: 'cw-shop', name: 'Stale' },
      { 'If-Match': tag },
    );
    const current = etag(await call('/company-settings/web-channels', 'GET'));
    expectStale(stale, current);
    const renamed = await call(
      '/company-settings/web-channels',
      'PUT',
      { slug: 'cw-shop', name: 'CW shop EU' },
      { 'If-Match': current },
    );
    expect(renamed.status, renamed.text).toBe(200);
  });
});
