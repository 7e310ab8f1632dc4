import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importProducts } from '../../src/index.ts';
import { aProduct } from '../../src/testing/index.ts';
import { type SqliteStoreHandle, sqliteStore } from '../support/sqlite-factory.ts';

function ndjson(handle: SqliteStoreHandle, lines: unknown[]): string {
  const path = join(handle.dir, 'import.ndjson');
  writeFileSync(
    path,
    `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`,
  );
  return path;
}

describe('importProducts', () => {
  let handle: SqliteStoreHandle;
  beforeEach(async () => {
    handle = await sqliteStore();
    await handle.store.webChannels.create({ slug: 'main-site' });
  });
  afterEach(async () => handle.dispose());

  it('imports admin-model records in batches and upserts them by id', async () => {
    const records = Array.from({ length: 25 }, (_, i) =>
      aProduct({ brandName: 'Imported', webVisibility: { 'main-site': i % 2 === 0 } }),
    );
    const path = ndjson(handle, [...records.slice(0, 10), '', ...records.slice(10)]);
    const progress: number[] = [];
    const report = await importProducts(handle.store, path, {
      batchSize: 10,
      onProgress: (p) => p.phase === 'write' && progress.push(p.records),
    });
    expect(report).toMatchObject({ records: 25, created: 25, updated: 0, problems: [], problemCount: 0 });
    expect(progress).toEqual([10, 20, 25]);
    const again = await importProducts(handle.store, path, { batchSize: 10 });
    expect(again).toMatchObject({ created: 0, updated: 25 });
    expect(await handle.store.products.count()).toBe(25);
  });

  it('with an audit context, appends one import-batch event per written batch and none for a refused file', async () => {
    const audit = {
      actor: { kind: 'operator', name: 'operator-cli' },
      sourceIp: null,
      requestId: null,
    } as const;
    const records = Array.from({ length: 12 }, () => aProduct());
    await importProducts(handle.store, ndjson(handle, records), { batchSize: 5, audit });
    await importProducts(handle.store, ndjson(handle, [aProduct(), { ...aProduct(), price: 'cheap' }]), {
      audit,
    });
    const { events } = await handle.store.audit.list({ limit: 10 });
    expect(events.map((event) => [event.action, event.target, event.details, event.actor])).toEqual([
      ['catalogue.import-batch', { type: 'catalogue', id: null }, { created: 2, updated: 0 }, audit.actor],
      ['catalogue.import-batch', { type: 'catalogue', id: null }, { created: 5, updated: 0 }, audit.actor],
      ['catalogue.import-batch', { type: 'catalogue', id: null }, { created: 5, updated: 0 }, audit.actor],
    ]);
  });

  it('reports every invalid line with field and reason, and then writes nothing', async () => {
    const path = ndjson(handle, [
      aProduct(),
      '{"productCode": "A1", "name": ',
      { ...aProduct(), price: 'cheap' },
      aProduct(),
      { ...aProduct(), webVisibility: { 'no-such-channel': true } },
      { ...aProduct(), relatedProducts: [{ productId: 'nope', relationType: 'sibling', qty: 1 }] },
      { productCode: 'X', name: 'Y', secretField: 1 },
    ]);
    const report = await importProducts(handle.store, path);
    expect(report.problems.map((p) => [p.line, p.field])).toEqual([
      [2, '(line)'],
      [3, 'price'],
      [5, 'webVisibility.no-such-channel'],
      [6, 'relatedProducts.0.productId'],
      [6, 'relatedProducts.0.relationType'],
      [7, 'secretField'],
    ]);
    expect(report.problems.every((p) => p.reason.length > 0)).toBe(true);
    expect(await handle.store.products.count()).toBe(0);
  });

  /** Lines 4 and 5 fail in the store: their brand slug is taken, which only writing can tell. */
  async function withFailingSecondBatch(): Promise<string> {
    await handle.store.brands.create({ name: 'Taken', slug: 'taken' });
    const records = [
      aProduct(),
      aProduct(),
      aProduct(),
      { ...aProduct(), brandName: 'Other', brandSlug: 'other' },
    ];
    records.push({ ...aProduct(), brandName: 'Taken', brandSlug: 'not-taken' }, aProduct());
    return ndjson(handle, records);
  }

  it('a batch that fails to write leaves none of its records, keeps the batches before it, and stops', async () => {
    await handle.store.products.upsertMany([aProduct()]);
    const report = await importProducts(handle.store, await withFailingSecondBatch(), { batchSize: 3 });
    expect(report.failedBatch).toMatchObject({ firstLine: 4, lastLine: 6 });
    expect(report.created).toBe(3);
    expect(await handle.store.products.count()).toBe(4);
    expect(await handle.store.brands.getBySlug('other')).toBeUndefined();
  });

  it('into an empty catalogue, a batch that fails to write leaves the catalogue empty: the import is one transaction', async () => {
    const report = await importProducts(handle.store, await withFailingSecondBatch(), { batchSize: 3 });
    expect(report.failedBatch).toMatchObject({ firstLine: 4, lastLine: 6 });
    expect(report).toMatchObject({ created: 0, updated: 0 });
    expect(await handle.store.products.count()).toBe(0);
  });
});
