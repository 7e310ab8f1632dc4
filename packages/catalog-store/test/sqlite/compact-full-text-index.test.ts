import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../src/index.ts';
import { aProduct } from '../../src/testing/index.ts';
import { type SqliteStoreHandle, sqliteStore } from '../support/sqlite-factory.ts';

/**
 * Segments of the product index, from its structure record (FTS5's %_data row 10: a 4-byte cookie,
 * then the varints nLevel, nSegment, ...).
 */
function segments(path: string): number {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const { block } = db.prepare('SELECT block FROM product_fts_data WHERE id = 10').get() as {
      block: Uint8Array;
    };
    let at = 4;
    const varint = () => {
      let value = 0;
      for (let i = 0; i < 9; i += 1) {
        const byte = block[at++] as number;
        if (i === 8) return value * 256 + byte;
        value = value * 128 + (byte & 0x7f);
        if ((byte & 0x80) === 0) break;
      }
      return value;
    };
    varint();
    return varint();
  } finally {
    db.close();
  }
}

// Looking up whether one product matches (the probed sort walks) searches every segment of the
// product index, so a bulk load, which leaves one segment per few write transactions, ends by
// merging them.
describe('compacting the product index', () => {
  let handle: SqliteStoreHandle | undefined;
  afterEach(async () => {
    await handle?.dispose();
    handle = undefined;
  });

  it('a seeded catalogue ends with its product index in one segment, and search still finds every product', async () => {
    handle = await sqliteStore();
    await seedCatalogue(handle.store, { products: 300, batchSize: 10 });
    expect(segments(handle.databasePath)).toBe(1);
    const everything = await handle.store.productSearch.search({ q: 'a', includeArchived: true, size: 1 });
    const direct = new DatabaseSync(handle.databasePath, { readOnly: true });
    const expected = direct
      .prepare("SELECT count(*) AS n FROM product_fts WHERE product_fts MATCH 'a*'")
      .get() as { n: number };
    direct.close();
    expect(everything.total).toBe(expected.n);
  });

  it('compactSearchIndex merges the segments that separate write transactions left', async () => {
    handle = await sqliteStore();
    for (let i = 0; i < 20; i += 1) {
      await handle.store.products.upsertMany(
        Array.from({ length: 10 }, () => aProduct({ description: `batch ${i}` })),
      );
    }
    expect(segments(handle.databasePath)).toBeGreaterThan(1);
    await handle.store.compactSearchIndex();
    expect(segments(handle.databasePath)).toBe(1);
  });
});
