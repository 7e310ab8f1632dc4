import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';
import { isDeepStrictEqual } from 'node:util';
import { PRODUCT_FIELDS } from '@catalog/contracts';
import { checkProperty } from '@catalog/vitest-config/property';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/adapters/sqlite/index.ts';
import { migrate } from '../../src/adapters/sqlite/migrate.ts';
import { MIGRATIONS } from '../../src/adapters/sqlite/migrations/index.ts';
import { openDatabase } from '../../src/adapters/sqlite/open-database.ts';
import { readProductsBySeq } from '../../src/adapters/sqlite/records/read-products.ts';
import { writeProduct } from '../../src/adapters/sqlite/records/write-product.ts';
import { inWriteTransaction } from '../../src/adapters/sqlite/transaction.ts';
import {
  type CatalogStore,
  catalogDatabasePath,
  type ProductInput,
  type ProductRecord,
  type ProductView,
} from '../../src/index.ts';
import { type SearchDocument, searchDocumentJson } from '../../src/model/search-document.ts';
import { aProduct } from '../../src/testing/index.ts';
import {
  openSqliteCatalogStore,
  type SqliteStoreHandle,
  sqliteStore,
  tempDataDir,
} from '../support/sqlite-factory.ts';

// /products/search serves its hits from documents stored by the writer (store migration 6). These
// tests hold the stored form to the rule it replaces: a hit is the allowlisted representation of
// the product as it is now (spec 2.1), for whichever channel asks.

const CHANNELS = ['main-site', 'outlet'];
const VIEWS: ProductView[] = [null, ...CHANNELS].map((channel) => ({ channel, withRelationCodes: false }));

/**
 * Spec 2.1's representation of `record` for a caller on `channel`, written here from the spec and
 * the contract's allowlist rather than by the code under test (externalProductJson), so a field
 * that leaks, goes missing or shows the wrong visibility in what the store renders is a difference.
 */
function specRepresentation(record: ProductRecord, channel: string | null): unknown {
  const out: Record<string, unknown> = {};
  for (const field of PRODUCT_FIELDS) {
    if (field === 'displayOnWeb') continue;
    if (field === 'relatedProducts') {
      // Without productCode and erpCode (only GET /products/{productId} has them), never the note.
      out.relatedProducts = record.relatedProducts.map(({ productId, relationType, qty, source }) => ({
        productId,
        relationType,
        qty,
        ...(source === 'reverse' ? { source } : {}),
      }));
    } else if (field === 'images' || field === 'documents') {
      out[field] = record[field].map(({ url, name }) => ({ url, name }));
    } else {
      out[field] = record[field];
    }
  }
  // A bound client always gets its channel's value, else the stored flag; an unbound one the stored
  // flag, or nothing when none is stored.
  if (channel !== null) out.displayOnWeb = record.webVisibility[channel] ?? record.displayOnWeb === true;
  else if (record.displayOnWeb !== null) out.displayOnWeb = record.displayOnWeb;
  return JSON.parse(JSON.stringify(out));
}

interface DocumentRow {
  seq: number;
  display_on_web: number | null;
  display_on_web_at: number;
  body: string;
}

function storedDocuments(db: DatabaseSync): Map<number, SearchDocument> {
  const rows = db.prepare('SELECT * FROM product_documents').all() as unknown as DocumentRow[];
  return new Map(
    rows.map((row) => [
      row.seq,
      {
        body: row.body,
        displayOnWebAt: row.display_on_web_at,
        displayOnWeb: row.display_on_web === null ? null : row.display_on_web === 1,
      },
    ]),
  );
}

/** Stored documents that differ from the product's rendering now, per view; and the products without one. */
function audit(db: DatabaseSync): { wrong: string[]; missing: number[]; queued: number } {
  const seqs = (db.prepare('SELECT seq FROM products ORDER BY seq').all() as Array<{ seq: number }>).map(
    (row) => row.seq,
  );
  const stored = storedDocuments(db);
  const wrong: string[] = [];
  const missing: number[] = [];
  for (const record of readProductsBySeq(db, seqs)) {
    const document = stored.get(record.seq);
    if (document === undefined) {
      missing.push(record.seq);
      continue;
    }
    for (const view of VIEWS) {
      const channelValue = view.channel === null ? undefined : record.webVisibility[view.channel];
      const expected = specRepresentation(record, view.channel);
      const actual = searchDocumentJson(document, view.channel, channelValue);
      if (!isDeepStrictEqual(JSON.parse(actual), expected))
        wrong.push(`seq ${record.seq}, channel ${view.channel}: ${actual} != ${JSON.stringify(expected)}`);
    }
  }
  const orphans = [...stored.keys()].filter((seq) => !seqs.includes(seq));
  for (const seq of orphans) wrong.push(`seq ${seq}: document of a product that does not exist`);
  const { n: queued } = db.prepare('SELECT count(*) AS n FROM product_documents_stale').get() as {
    n: number;
  };
  return { wrong, missing, queued };
}

const IDS = Array.from({ length: 6 }, (_, i) => `00000000-0000-4000-8000-00000000000${i}`);
const BRANDS = ['Acme', 'Bolt Co', 'Crest'];

const relationArb = fc.record({
  productId: fc.constantFrom(...IDS),
  relationType: fc.constantFrom('required' as const, 'optional' as const, 'substitute' as const),
  qty: fc.integer({ min: 1, max: 5 }),
});

const productArb = (id: string) =>
  fc
    .record({
      name: fc.constantFrom('Brass elbow', 'Radiator "Compact"', 'Valve \\ 15 mm', 'Ölfilter'),
      brandName: fc.constantFrom(...BRANDS),
      price: fc.option(fc.constantFrom(0.1 + 0.2, 12.5, 123456.789), { nil: null }),
      // Omitted, the product has no stored default (null); the contract takes no explicit null.
      displayOnWeb: fc.constantFrom(true, false, undefined),
      webVisibility: fc.dictionary(fc.constantFrom(...CHANNELS), fc.boolean()),
      relatedProducts: fc.uniqueArray(relationArb, { maxLength: 3, selector: (r) => r.productId }),
      archived: fc.boolean(),
    })
    .map(({ displayOnWeb, relatedProducts, ...rest }): ProductInput => {
      const input: ProductInput = {
        ...rest,
        id,
        productCode: `DOC-${id.slice(-1)}`,
        relatedProducts: relatedProducts.filter((relation) => relation.productId !== id),
      };
      if (displayOnWeb !== undefined) input.displayOnWeb = displayOnWeb;
      return input;
    });

type Operation =
  | { kind: 'upsert'; inputs: ProductInput[] }
  | { kind: 'archive'; id: string }
  | { kind: 'rename brand'; from: string; to: string }
  | { kind: 'failing batch'; input: ProductInput }
  | { kind: 'raw delete'; id: string };

const operationArb: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .uniqueArray(fc.constantFrom(...IDS), { minLength: 1, maxLength: 2 })
      .chain((ids) => fc.tuple(...ids.map(productArb)))
      .map((inputs) => ({ kind: 'upsert' as const, inputs })),
  },
  { weight: 1, arbitrary: fc.constantFrom(...IDS).map((id) => ({ kind: 'archive' as const, id })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...BRANDS), fc.constantFrom('Delta', 'Echo'))
      .map(([from, to]) => ({ kind: 'rename brand' as const, from, to })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(...IDS)
      .chain(productArb)
      .map((input) => ({ kind: 'failing batch' as const, input })),
  },
  { weight: 1, arbitrary: fc.constantFrom(...IDS).map((id) => ({ kind: 'raw delete' as const, id })) },
);

/** Applies `operation`; true when a store write committed (and so ran the commit hook). */
async function apply(store: CatalogStore, side: DatabaseSync, operation: Operation): Promise<boolean> {
  switch (operation.kind) {
    case 'upsert':
      await store.products.upsertMany(operation.inputs);
      return true;
    case 'archive': {
      const product = await store.products.get(operation.id);
      if (product === undefined || product.archived) return false;
      await store.products.archive(operation.id);
      return true;
    }
    case 'rename brand': {
      const brand = (await store.brands.list({ includeArchived: true })).find(
        (b) => b.name === operation.from,
      );
      if (brand === undefined) return false;
      await store.brands.update(brand.id, { name: `${operation.to} ${brand.id.slice(0, 4)}` });
      return true;
    }
    case 'failing batch':
      await expect(
        store.products.upsertMany([
          operation.input,
          aProduct({ webVisibility: { 'no-such-channel': true } }),
        ]),
      ).rejects.toThrow();
      return false;
    case 'raw delete':
      // Not a store operation: a repair by hand on another connection, which no commit hook sees.
      side.prepare('DELETE FROM products WHERE id = ?').run(operation.id);
      return false;
  }
}

describe('stored search documents', () => {
  let handle: SqliteStoreHandle | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await handle?.dispose();
    handle = undefined;
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  // With the page cache, the same searches repeat after every write: each must show that write.
  it.each([
    ['', 0],
    [', and searches served from the page cache show every write from the next search', 32 * 2 ** 20],
  ])(
    'equal the allowlisted representation for every channel after any sequence of writes, failed ones included (spec 2.1)%s',
    async (_, searchPageCacheBytes) => {
      // One store for every run, its search worker started once (a worker start per run made each
      // run cost a third of a second alone, seconds on a loaded machine). Each run starts from the same
      // fresh database: SQLite's online backup copies a snapshot taken before the first write over the
      // live file, which every connection then sees as another connection's commit.
      handle = await sqliteStore({ searchWorkers: 1, searchPageCacheBytes });
      const run = handle;
      for (const slug of CHANNELS) await run.store.webChannels.create({ slug });
      const side = new DatabaseSync(run.databasePath);
      const freshPath = join(run.dir, 'fresh.sqlite');
      side.prepare('VACUUM INTO ?').run(freshPath);
      const fresh = new DatabaseSync(freshPath, { readOnly: true });
      try {
        await checkProperty(
          fc.asyncProperty(fc.array(operationArb, { minLength: 1, maxLength: 10 }), async (operations) => {
            await backup(fresh, run.databasePath);
            expect(side.prepare('SELECT count(*) AS n FROM products').get()).toEqual({ n: 0 });
            for (const operation of operations) {
              const storeWrote = await apply(run.store, side, operation);
              const { wrong, missing, queued } = audit(side);
              expect(wrong).toEqual([]);
              if (storeWrote) expect({ missing, queued }).toEqual({ missing: [], queued: 0 });
            }
            // And through the engine, as /products/search returns them.
            const records = readProductsBySeq(
              side,
              (side.prepare('SELECT seq FROM products ORDER BY seq').all() as Array<{ seq: number }>).map(
                (row) => row.seq,
              ),
            );
            for (const view of VIEWS) {
              const page = await run.store.productSearch.searchDocuments(
                { includeArchived: true, sort: 'createdAt', order: 'asc', size: 100, channel: view.channel },
                view,
              );
              const expected = [...records]
                .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.seq - b.seq)
                .map((record) => specRepresentation(record, view.channel));
              expect(page.documents.map((json) => JSON.parse(json))).toEqual(expected);
            }
          }),
          { runs: 50, heavyRuns: 2_000, seed: 20261123 },
        );
      } finally {
        fresh.close();
        side.close();
      }
    },
  );

  it('serve search hits: what is stored is what /products/search sends', async () => {
    handle = await sqliteStore();
    const product = await handle.store.products.create(aProduct({ name: 'Stored hit' }));
    const side = new DatabaseSync(handle.databasePath);
    const { body } = side.prepare('SELECT body FROM product_documents WHERE seq = ?').get(product.seq) as {
      body: string;
    };
    // A marker written behind the store's back shows which path produced the hit.
    side
      .prepare('UPDATE product_documents SET body = ? WHERE seq = ?')
      .run(body.replace('"Stored hit"', '"Marker"'), product.seq);
    side.close();
    const view = { channel: null, withRelationCodes: false };
    const page = await handle.store.productSearch.searchDocuments({ q: 'stored' }, view);
    expect(page.documents.map((json) => JSON.parse(json).name)).toEqual(['Marker']);
  });

  it('a product whose document is missing is rendered from its record, for every channel', async () => {
    handle = await sqliteStore();
    for (const slug of CHANNELS) await handle.store.webChannels.create({ slug });
    const product = await handle.store.products.create(
      aProduct({ name: 'No document', displayOnWeb: true, webVisibility: { outlet: false } }),
    );
    const side = new DatabaseSync(handle.databasePath);
    side.prepare('DELETE FROM product_documents WHERE seq = ?').run(product.seq);
    side.close();
    for (const view of VIEWS) {
      const page = await handle.store.productSearch.searchDocuments(
        { q: 'document', channel: view.channel },
        view,
      );
      expect(page.documents.map((json) => JSON.parse(json))).toEqual([
        specRepresentation(product, view.channel),
      ]);
    }
  });

  it('products already stored when migration 6 runs get their documents, once', async () => {
    dir = tempDataDir();
    const path = catalogDatabasePath(dir);
    const db = openDatabase(path);
    migrate(db, MIGRATIONS.slice(0, 5));
    inWriteTransaction(db, () => {
      for (let i = 0; i < 30; i += 1)
        writeProduct(db, aProduct({ displayOnWeb: i % 2 === 0 }), i + 1, 'upsert');
    });
    db.close();
    const report = migrateDatabase(path);
    // Later migrations follow; these two are the ones this test is about.
    expect(report.applied.slice(0, 2)).toEqual([
      '6 stored product search documents',
      '7 sort indexes cover archived',
    ]);
    expect(report.searchDocumentsWritten).toBe(30);
    expect(migrateDatabase(path).searchDocumentsWritten).toBe(0);
    const side = new DatabaseSync(path);
    expect(audit(side)).toEqual({ wrong: [], missing: [], queued: 0 });
    side.close();
  });

  it('opening the store finishes a backfill that was interrupted', async () => {
    dir = tempDataDir();
    const path = catalogDatabasePath(dir);
    const db = openDatabase(path);
    migrate(db, MIGRATIONS.slice(0, 5));
    inWriteTransaction(db, () => {
      for (let i = 0; i < 25; i += 1) writeProduct(db, aProduct(), i + 1, 'upsert');
    });
    db.close();
    migrateDatabase(path);
    // As if the backfill had stopped after ten products: no completion mark, the rest missing.
    const cut = new DatabaseSync(path);
    cut.exec(
      "DELETE FROM product_documents WHERE seq > 10; DELETE FROM meta WHERE key = 'search_documents_backfilled'",
    );
    expect(audit(cut).missing).toHaveLength(15);
    cut.close();
    const store = openSqliteCatalogStore({ databasePath: path, searchWorkers: 1 });
    await store.close();
    const side = new DatabaseSync(path);
    expect(audit(side)).toEqual({ wrong: [], missing: [], queued: 0 });
    side.close();
  });
});
