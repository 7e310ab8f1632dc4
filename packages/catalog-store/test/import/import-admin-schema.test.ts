import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importProducts, ValidationError } from '../../src/index.ts';
import { aProduct } from '../../src/testing/index.ts';
import { type SqliteStoreHandle, sqliteStore } from '../support/sqlite-factory.ts';

function ndjson(handle: SqliteStoreHandle, lines: unknown[]): string {
  const path = join(handle.dir, 'import.ndjson');
  writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  return path;
}

const UNSAFE_URLS = [
  'javascript:alert(document.cookie)',
  'JavaScript:alert(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'file:///etc/passwd',
  'vbscript:msgbox(1)',
  '//cdn.example.com/no-scheme.jpg',
];

describe('import and store writes check records with the contract’s admin schema', () => {
  let handle: SqliteStoreHandle;
  beforeEach(async () => {
    handle = await sqliteStore();
  });
  afterEach(async () => handle.dispose());

  it('refuses every URL that is not https: or http: in imageUrl, images[].url and documents[].url, and writes nothing', async () => {
    const lines = UNSAFE_URLS.flatMap((url) => [
      aProduct({ imageUrl: url }),
      aProduct({ images: [{ url, name: 'Front' }] }),
      aProduct({ documents: [{ url, name: 'Manual' }] }),
    ]);
    const report = await importProducts(handle.store, ndjson(handle, lines));
    expect(report.problems.map((problem) => problem.field)).toEqual(
      UNSAFE_URLS.flatMap(() => ['imageUrl', 'images.0.url', 'documents.0.url']),
    );
    expect(report.problems.every((problem) => problem.reason.length > 0)).toBe(true);
    expect(await handle.store.products.count()).toBe(0);
  });

  it('imports https: and http: URLs, whatever the case of the scheme', async () => {
    const record = aProduct({
      imageUrl: 'HTTPS://cdn.example.com/a.jpg',
      images: [{ url: 'http://cdn.example.com/b.jpg', name: 'Back' }],
      documents: [{ url: 'https://cdn.example.com/manual.pdf', name: 'Manual' }],
    });
    const report = await importProducts(handle.store, ndjson(handle, [record]));
    expect(report).toMatchObject({ created: 1, problemCount: 0 });
    expect((await handle.store.products.get(record.id as string))?.imageUrl).toBe(
      'HTTPS://cdn.example.com/a.jpg',
    );
  });

  it.each(['javascript:alert(1)', 'https://', 'https:///cdn.example.com/a.jpg'])(
    'refuses an unsafe URL (%s) on the store’s own write path with VALIDATION_ERROR {field, reason}',
    async (imageUrl) => {
      const write = handle.store.products.create(aProduct({ imageUrl }));
      await expect(write).rejects.toBeInstanceOf(ValidationError);
      await expect(write).rejects.toMatchObject({
        status: 400,
        code: 'VALIDATION_ERROR',
        details: {
          field: 'imageUrl',
          reason: 'must be an absolute https or http URL with a host and no user name or password',
        },
      });
      expect(await handle.store.products.count()).toBe(0);
    },
  );

  it('imports a record as reads show it: relation productCode/erpCode ignored, reverse entries ignored, never stored', async () => {
    const target = aProduct({ erpCode: 'ERP-T' });
    const other = aProduct();
    const reader = aProduct({
      relatedProducts: [{ productId: target.id as string, relationType: 'required', qty: 2, note: 'fits' }],
    });
    await handle.store.products.upsertMany([target, other, reader]);
    const shown = await handle.store.products.get(target.id as string);
    const reverse = shown?.relatedProducts.find((entry) => entry.source === 'reverse');
    expect(reverse).toMatchObject({ productId: reader.id, productCode: reader.productCode });

    // The target as read, with its derived reverse entry and one forward entry carrying codes.
    const readBack = {
      ...target,
      relatedProducts: [
        reverse,
        {
          productId: other.id,
          relationType: 'optional',
          qty: 1,
          productCode: other.productCode,
          erpCode: '',
        },
      ],
    };
    const report = await importProducts(handle.store, ndjson(handle, [readBack]));
    expect(report).toMatchObject({ updated: 1, problemCount: 0 });
    const stored = await handle.store.products.get(target.id as string);
    expect(stored?.relatedProducts.filter((entry) => entry.source !== 'reverse')).toEqual([
      { productId: other.id, relationType: 'optional', qty: 1, productCode: other.productCode, erpCode: '' },
    ]);
    // Still exactly one reverse entry, derived from the reader's relation, not a stored copy of it.
    expect(stored?.relatedProducts.filter((entry) => entry.source === 'reverse')).toEqual([reverse]);
  });

  it('refuses a relation to the record itself by its field', async () => {
    const record = aProduct();
    const self = { ...record, relatedProducts: [{ productId: record.id, relationType: 'required', qty: 1 }] };
    const report = await importProducts(handle.store, ndjson(handle, [self]));
    expect(report.problems).toEqual([
      { line: 1, field: 'relatedProducts.0.productId', reason: 'a product cannot relate to itself' },
    ]);
  });
});
