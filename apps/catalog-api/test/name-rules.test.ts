import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Reply, type Stack, startStack } from './support/stack.ts';

/**
 * Names people read must not look like another name, or like nothing: blank, padded, doubled spaces,
 * whitespace other than U+0020, invisible format characters and terminal control sequences are all
 * refused (the contract's ClientName and PrintableName), on create and on update alike.
 */
const LOOK_ALIKES: ReadonlyArray<readonly [string, string]> = [
  ['blank', '   '],
  ['a leading space', ' Acme'],
  ['a trailing space', 'Acme '],
  ['a run of spaces', 'Acme  Tools'],
  ['a tab', 'Acme\tTools'],
  ['a line feed', 'Acme\nTools'],
  ['a carriage return', 'Acme\rTools'],
  ['a byte-order mark', '\ufeffAcme'],
  ['a zero-width space', 'Acme\u200bTools'],
  ['a right-to-left override', 'Acme\u202eTools'],
  ['a no-break space', 'Acme\u00a0Tools'],
  ['an ideographic space', 'Acme\u3000Tools'],
  ['a line separator', 'Acme\u2028Tools'],
  ['a paragraph separator', 'Acme\u2029Tools'],
  ['an escape sequence', 'Acme\u001b[31mTools'],
  ['a bell', 'Acme\u0007Tools'],
  ['a DEL', 'Acme\u007fTools'],
  ['a C1 control', 'Acme\u0085Tools'],
];

describe('names people read: client, brand and channel names refuse blank and look-alike values', () => {
  let stack: Stack;
  let admin: string;
  let clientId: string;
  let brandId: string;
  let productId: string;

  beforeAll(async () => {
    stack = await startStack();
    admin = await stack.idToken(['admin']);
    const client = await stack.call<{ clientId: string }>('/oauth/clients', {
      method: 'POST',
      token: admin,
      body: { clientName: 'Name rules', scopes: ['products.read'] },
    });
    clientId = client.body.clientId;
    const brand = await stack.call<{ id: string }>('/brands', {
      method: 'POST',
      token: admin,
      body: { name: 'Name rules brand', slug: 'name-rules-brand' },
    });
    brandId = brand.body.id;
    const channel = await stack.call('/company-settings/web-channels', {
      method: 'POST',
      token: admin,
      body: { slug: 'name-rules', name: 'Name rules channel' },
    });
    const product = await stack.call<{ id: string }>('/products', {
      method: 'POST',
      token: admin,
      body: { productCode: 'NAME-RULES-1', name: 'Name rules product' },
    });
    productId = product.body.id;
    expect([client.status, brand.status, channel.status, product.status]).toEqual([201, 201, 201, 201]);
  }, 180_000);
  afterAll(() => stack?.stop());

  const send = (method: string, path: string, body: unknown): Promise<Reply<Record<string, unknown>>> =>
    stack.call(path, { method, token: admin, body });

  /** The client-management routes' 400 (spec 7.2): INVALID_PARAMETER, one `errors` entry per field. */
  const expectClientNameRefused = (reply: Reply<Record<string, unknown>>) => {
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      error: 'INVALID_PARAMETER',
      // The characters at fault are named first (x-allowed-characters), then what the name must be.
      errors: [
        {
          field: 'clientName',
          message: expect.stringMatching(
            /^Client name (must not contain (U\+[0-9A-F]{4}|“.”)(, (U\+[0-9A-F]{4}|“.”))*: it )?must be letters/u,
          ),
        },
      ],
    });
  };

  /** The catalogue routes' 400: VALIDATION_ERROR with details naming the field. */
  const expectFieldRefused = (reply: Reply<Record<string, unknown>>, field: string) => {
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      error: 'VALIDATION_ERROR',
      details: {
        field,
        reason: expect.stringMatching(/printable characters in words separated by single spaces/),
      },
    });
  };

  it.each(LOOK_ALIKES)('refuses a client name with %s on create and on update', async (_what, name) => {
    const clientName = name.replaceAll('Acme', 'Shop').replaceAll('Tools', 'sync');
    expectClientNameRefused(await send('POST', '/oauth/clients', { clientName, scopes: ['products.read'] }));
    expectClientNameRefused(await send('PUT', `/oauth/clients/${clientId}`, { clientName }));
  });

  it.each(LOOK_ALIKES)('refuses a brand name with %s on create and on update', async (_what, name) => {
    expectFieldRefused(await send('POST', '/brands', { name, slug: 'look-alike' }), 'name');
    expectFieldRefused(await send('PUT', `/brands/${brandId}`, { name, slug: 'name-rules-brand' }), 'name');
  });

  it.each(LOOK_ALIKES)(
    'refuses a product brandName with %s on create and on update, as it creates brands',
    async (_what, brandName) => {
      const product = { productCode: 'NAME-RULES-2', name: 'Look-alike brand', brandName };
      expectFieldRefused(await send('POST', '/products', product), 'brandName');
      const replaced = { productCode: 'NAME-RULES-1', name: 'Name rules product', brandName };
      expectFieldRefused(await send('PUT', `/products/${productId}`, replaced), 'brandName');
    },
  );

  it.each(LOOK_ALIKES)('refuses a web channel name with %s on create and on update', async (_what, name) => {
    const path = '/company-settings/web-channels';
    expectFieldRefused(await send('POST', path, { slug: 'look-alike', name }), 'name');
    expectFieldRefused(await send('PUT', path, { slug: 'name-rules', name }), 'name');
  });

  it('stored nothing for any refused name', async () => {
    const brands = await stack.call<{ name: string }[]>('/brands', { token: admin });
    expect(brands.body.map((brand) => brand.name)).toEqual(['Name rules brand']);
    const channels = await stack.call<{ channels: { slug: string; name: string }[] }>(
      '/company-settings/web-channels',
      { token: admin },
    );
    expect(channels.body.channels).toEqual([{ slug: 'name-rules', name: 'Name rules channel' }]);
  });

  it('accepts names in any script, with punctuation, in words separated by single spaces', async () => {
    const client = await send('POST', '/oauth/clients', {
      clientName: 'ERP sync_2-prod',
      scopes: ['products.read'],
    });
    expect(client.status).toBe(201);
    const brand = await send('POST', '/brands', { name: 'Zürich Äpfel & Söhne 北京', slug: 'zurich-apfel' });
    expect(brand.status).toBe(201);
    expect(brand.body.name).toBe('Zürich Äpfel & Söhne 北京');
    const channel = await send('PUT', '/company-settings/web-channels', {
      slug: 'name-rules',
      name: 'Café (trade) — Øst',
    });
    expect(channel.status).toBe(200);
    const product = await send('POST', '/products', {
      productCode: 'NAME-RULES-3',
      name: 'No brand',
      brandName: '',
    });
    expect(product.status).toBe(201);
  });
});
