import { describe, expect, it } from 'vitest';
import { requestValidators, validateAuthServerRequest, validateRequest } from '../src/index.ts';

function issuesOf(result: ReturnType<typeof validateRequest>) {
  return result.ok ? [] : result.issues;
}

const search = (query: Record<string, unknown>) => validateRequest('searchProducts', { query });

describe('GET /products/search parameters', () => {
  it('defaults apply: size 20, from 0, order desc, includeArchived false', () => {
    const result = search({});
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.value.query).toEqual({
        size: 20,
        from: 0,
        order: 'desc',
        includeArchived: 'false',
        includeAggregations: 'false',
      });
    }
  });

  it('query strings are coerced to the declared integers and unknown parameters are ignored', () => {
    const result = search({ size: '50', from: '100', utm_source: 'x' });
    expect(result.ok && result.value.query).toMatchObject({ size: 50, from: 100 });
    expect(result.ok && 'utm_source' in result.value.query).toBe(false);
  });

  it('size 101 is refused (VALIDATION_ERROR)', () => {
    expect(issuesOf(search({ size: '101' }))).toEqual([
      { field: 'size', reason: 'must be at most 100', code: 'VALIDATION_ERROR' },
    ]);
  });

  it('size that is not an integer is refused (VALIDATION_ERROR)', () => {
    expect(issuesOf(search({ size: 'ten' }))).toMatchObject([{ field: 'size', code: 'VALIDATION_ERROR' }]);
    expect(issuesOf(search({ size: '1.5' }))).toMatchObject([{ field: 'size', code: 'VALIDATION_ERROR' }]);
  });

  it('from -1 is refused (VALIDATION_ERROR)', () => {
    expect(issuesOf(search({ from: '-1' }))).toEqual([
      { field: 'from', reason: 'must be at least 0', code: 'VALIDATION_ERROR' },
    ]);
  });

  it('from + size over 10000 is refused (VALIDATION_ERROR), 10000 exactly is accepted', () => {
    expect(issuesOf(search({ from: '9990', size: '20' }))).toMatchObject([
      { field: 'from', code: 'VALIDATION_ERROR' },
    ]);
    expect(search({ from: '9980', size: '20' }).ok).toBe(true);
  });

  it('q of 257 characters is refused with SEARCH_TERM_TOO_LONG; 256 is accepted', () => {
    expect(issuesOf(search({ q: 'x'.repeat(257) }))).toMatchObject([
      { field: 'q', code: 'SEARCH_TERM_TOO_LONG' },
    ]);
    expect(search({ q: 'x'.repeat(256) }).ok).toBe(true);
  });

  it('sort=foo is refused with INVALID_SORT_FIELD, listing the allowed values', () => {
    const [issue] = issuesOf(search({ sort: 'foo' }));
    expect(issue).toMatchObject({ field: 'sort', code: 'INVALID_SORT_FIELD' });
    expect(issue?.reason).toContain(
      'name, code, brand, price, category, department, subDepartment, supplierCost',
    );
  });

  it('order=up with sort present is refused with INVALID_SORT', () => {
    expect(issuesOf(search({ sort: 'price', order: 'up' }))).toMatchObject([
      { field: 'order', code: 'INVALID_SORT' },
    ]);
  });

  it('order is consulted only when sort is present: order=up alone is ignored', () => {
    const result = search({ order: 'up' });
    expect(result.ok && result.value.query.order).toBe('desc');
  });

  it('includeArchived=yes is refused (VALIDATION_ERROR)', () => {
    expect(issuesOf(search({ includeArchived: 'yes' }))).toMatchObject([
      { field: 'includeArchived', code: 'VALIDATION_ERROR' },
    ]);
  });

  it('a bad updatedAfter date is refused (VALIDATION_ERROR); the epoch is accepted', () => {
    expect(issuesOf(search({ updatedAfter: 'yesterday' }))).toMatchObject([
      { field: 'updatedAfter', code: 'VALIDATION_ERROR', reason: 'must be a valid date-time' },
    ]);
    expect(search({ updatedAfter: '1970-01-01T00:00:00Z' }).ok).toBe(true);
  });

  it('an empty syncToken is refused with INVALID_SYNC_TOKEN', () => {
    expect(issuesOf(search({ syncToken: '' }))).toMatchObject([
      { field: 'syncToken', code: 'INVALID_SYNC_TOKEN' },
    ]);
  });

  it('a repeated parameter is refused', () => {
    expect(issuesOf(search({ size: ['10', '20'] }))).toMatchObject([
      { field: 'size', code: 'VALIDATION_ERROR' },
    ]);
  });

  it('reports every invalid parameter', () => {
    const fields = issuesOf(search({ size: '0', q: 'x'.repeat(300), sort: 'foo', order: 'up' })).map(
      (i) => i.field,
    );
    expect(fields).toEqual(['q', 'size', 'sort', 'order']);
  });
});

describe('GET /brands/search and GET /products parameters', () => {
  it('brand search: size default 20 maximum 100', () => {
    const result = validateRequest('searchBrands', { query: {} });
    expect(result.ok && result.value.query).toEqual({ size: 20, from: 0 });
    expect(issuesOf(validateRequest('searchBrands', { query: { size: '101' } }))).toMatchObject([
      { field: 'size' },
    ]);
  });

  it('deprecated list: limit default 20', () => {
    const result = requestValidators.listProducts({ query: {} });
    expect(result.ok && result.value.query).toEqual({ limit: 20 });
  });
});

describe('client management input (INVALID_PARAMETER)', () => {
  const create = (body: unknown) => validateRequest('createM2MClient', { body });
  const valid = { clientName: 'ERP sync', scopes: ['products.read'] };

  it('accepts a valid body', () => {
    const result = create({ ...valid, description: 'nightly', expiresInDays: 365 });
    expect(result.ok && result.value.body).toEqual({ ...valid, description: 'nightly', expiresInDays: 365 });
  });

  it('clientName "ab" is refused with INVALID_PARAMETER on field clientName', () => {
    expect(issuesOf(create({ ...valid, clientName: 'ab' }))).toEqual([
      { field: 'clientName', reason: 'must be at least 3 characters long', code: 'INVALID_PARAMETER' },
    ]);
  });

  it('clientName with characters outside the pattern is refused', () => {
    expect(issuesOf(create({ ...valid, clientName: 'erp<script>' }))).toMatchObject([
      { field: 'clientName', code: 'INVALID_PARAMETER' },
    ]);
  });

  it('a clientName with a character outside its class names that character ("Acme Corp. ERP": the full stop)', () => {
    expect(issuesOf(create({ ...valid, clientName: 'Acme Corp. ERP' }))).toEqual([
      {
        field: 'clientName',
        reason:
          'must not contain “.”: it must be letters, digits, hyphens and underscores, in words separated by single spaces',
        code: 'INVALID_PARAMETER',
      },
    ]);
    const [invisible] = issuesOf(create({ ...valid, clientName: 'Acme\u00a0Corp\tERP' }));
    expect(invisible?.reason).toMatch(/^must not contain U\+00A0, U\+0009: it must be letters/);
  });

  it('a clientName of allowed characters in the wrong places says only what the pattern means', () => {
    expect(issuesOf(create({ ...valid, clientName: 'Acme  Corp' }))[0]?.reason).toBe(
      'must be letters, digits, hyphens and underscores, in words separated by single spaces',
    );
  });

  it('expiresInDays over its maximum says the maximum in words', () => {
    expect(issuesOf(create({ ...valid, expiresInDays: 366 }))[0]?.reason).toBe('must be at most 365');
  });

  it('scopes ["clients.read"] is refused, naming that scope', () => {
    const [issue] = issuesOf(create({ ...valid, scopes: ['clients.read'] }));
    expect(issue).toMatchObject({ field: 'scopes.0', code: 'INVALID_PARAMETER' });
    expect(issue?.reason).toContain('clients.read');
  });

  it('prefixed or mis-cased scopes are refused too', () => {
    expect(create({ ...valid, scopes: ['crm-api/products.read'] }).ok).toBe(false);
    expect(create({ ...valid, scopes: ['Products.Read'] }).ok).toBe(false);
  });

  it('scopes [] is refused', () => {
    expect(issuesOf(create({ ...valid, scopes: [] }))).toMatchObject([
      { field: 'scopes', code: 'INVALID_PARAMETER' },
    ]);
  });

  it('expiresInDays 0 and 366 are refused; 1 and 365 are accepted', () => {
    for (const days of [0, 366, 1.5]) {
      expect(issuesOf(create({ ...valid, expiresInDays: days }))).toMatchObject([
        { field: 'expiresInDays', code: 'INVALID_PARAMETER' },
      ]);
    }
    for (const days of [1, 365]) expect(create({ ...valid, expiresInDays: days }).ok).toBe(true);
  });

  it('a description over 500 characters, a missing name and an unknown field are refused, one issue per field', () => {
    const issues = issuesOf(create({ scopes: ['brands.read'], description: 'd'.repeat(501), scope: 'x' }));
    expect(issues.map((issue) => issue.field).sort()).toEqual(['clientName', 'description', 'scope']);
    expect(issues.every((issue) => issue.code === 'INVALID_PARAMETER')).toBe(true);
  });

  it('a missing body is refused', () => {
    expect(issuesOf(create(undefined))).toEqual([
      { field: 'body', reason: 'is required', code: 'INVALID_PARAMETER' },
    ]);
  });

  it('update: at least one field; channel is a kebab-case slug or null', () => {
    const params = { clientId: 'A'.repeat(26) };
    const update = (body: unknown) => validateRequest('updateM2MClient', { params, body });
    expect(issuesOf(update({}))).toMatchObject([{ field: 'body', code: 'INVALID_PARAMETER' }]);
    expect(update({ channel: null }).ok).toBe(true);
    expect(update({ channel: 'uk-shop' }).ok).toBe(true);
    expect(issuesOf(update({ channel: 'UK Shop' }))).toMatchObject([
      { field: 'channel', code: 'INVALID_PARAMETER' },
    ]);
  });

  it('a malformed clientId path parameter is refused with INVALID_PARAMETER', () => {
    const result = validateRequest('revokeM2MClient', { params: { clientId: 'short' } });
    expect(issuesOf(result)).toMatchObject([{ field: 'clientId', code: 'INVALID_PARAMETER' }]);
  });

  it('status filter: default active; anything but active|revoked|all is refused', () => {
    const result = validateRequest('listM2MClients', { query: {} });
    expect(result.ok && result.value.query.status).toBe('active');
    expect(issuesOf(validateRequest('listM2MClients', { query: { status: 'gone' } }))).toMatchObject([
      { field: 'status', code: 'INVALID_PARAMETER' },
    ]);
  });
});

describe('admin product writes', () => {
  it('server-set fields are not required in the body; internal fields left out stay out (a PUT keeps the stored ones)', () => {
    const result = validateRequest('createProduct', { body: { productCode: 'SKU-1', name: 'Basin' } });
    expect(result.ok && result.value.body).toEqual({ productCode: 'SKU-1', name: 'Basin' });
  });

  it('server-set fields are accepted when sent (a fetched record round-trips) and dropped from the value', () => {
    const sent = {
      id: '0b9d3c1e-7c55-4b7e-9f6a-2f1f0a6c9e11',
      createdAt: '2024-01-01T00:00:00Z',
      productCode: 'S',
      name: 'N',
    };
    const result = validateRequest('updateProduct', { params: { productId: sent.id }, body: sent });
    expect(result.ok && result.value.body).toEqual({ productCode: 'S', name: 'N' });
  });

  it('fields outside the internal record are refused', () => {
    const result = validateRequest('createProduct', {
      body: { productCode: 'SKU-1', name: 'Basin', colour2: 'x' },
    });
    expect(issuesOf(result)).toMatchObject([{ field: 'colour2', code: 'VALIDATION_ERROR' }]);
  });

  it('webVisibility keys are channel slugs with boolean values', () => {
    const body = (webVisibility: unknown) => ({ productCode: 'SKU-1', name: 'Basin', webVisibility });
    expect(validateRequest('createProduct', { body: body({ 'uk-shop': true }) }).ok).toBe(true);
    expect(validateRequest('createProduct', { body: body({ 'uk-shop': 'yes' }) }).ok).toBe(false);
    expect(validateRequest('createProduct', { body: body({ 'UK Shop': true }) }).ok).toBe(false);
  });
});

describe('token request (auth server)', () => {
  it('grant_type other than client_credentials is unsupported_grant_type; a missing field is invalid_request', () => {
    const body = {
      grant_type: 'password',
      scope: 'crm-api/products.read',
      client_id: 'a',
      client_secret: 'b',
    };
    const wrongGrant = validateAuthServerRequest('issueToken', { body });
    expect(wrongGrant.ok ? [] : wrongGrant.issues).toMatchObject([
      { field: 'grant_type', code: 'unsupported_grant_type' },
    ]);
    const missing = validateAuthServerRequest('issueToken', { body: { grant_type: 'client_credentials' } });
    expect(missing.ok ? [] : missing.issues).toMatchObject([{ field: 'scope', code: 'invalid_request' }]);
  });
});

describe('validators', () => {
  it('exist for every operationId and do not mutate their input', () => {
    expect(Object.keys(requestValidators)).toContain('getSecretRotationInstructions');
    const query = { size: '5' };
    requestValidators.searchProducts({ query });
    expect(query).toEqual({ size: '5' });
  });

  it('work on their own copy of a body: the record the caller sent, nested parts too, is left as it was', () => {
    const body = {
      id: '0b9d3c1e-7c55-4b7e-9f6a-2f1f0a6c9e11',
      productCode: 'SKU-1',
      name: 'Basin',
      images: [{ url: 'https://cdn.example.com/a.jpg', name: 'a' }],
      webVisibility: { 'uk-shop': true },
    };
    const sent = JSON.parse(JSON.stringify(body));
    const result = validateRequest('updateProduct', { params: { productId: body.id }, body });
    expect(result.ok && result.value.body).not.toHaveProperty('id');
    expect(body).toEqual(sent);
    expect(result.ok && (result.value.body as unknown as typeof body).images).not.toBe(body.images);
  });

  it('a body key named __proto__ stays a key of the copy (refused as an unknown field), never its prototype', () => {
    const body = JSON.parse('{"productCode":"SKU-1","name":"Basin","__proto__":{"status":"inactive"}}');
    const result = validateRequest('createProduct', { body });
    expect(issuesOf(result)).toMatchObject([{ field: '__proto__', code: 'VALIDATION_ERROR' }]);
    expect(({} as Record<string, unknown>).status).toBeUndefined();
  });

  it('refuse an unknown operationId', () => {
    expect(() => validateRequest('nope' as 'getHealth', {})).toThrow(/Unknown operationId/);
  });
});
