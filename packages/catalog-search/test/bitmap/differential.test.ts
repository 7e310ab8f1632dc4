import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type ProductSearchPage, type ProductSearchQuery, seededRandom } from '@catalog/store';
import { openSqliteRecordStore } from '@catalog/store/sqlite';
import { TEST_SEARCH_TIMEOUT_MS } from '@catalog/store/testing';
import { expect, test } from 'vitest';
import { openBitmapSearchOverRecords, openReplicatedSearch } from '../../src/engines/index.ts';
import { sqliteStore } from '../support/sqlite-factory.ts';
import { drawQuery, type QueryVocabulary } from './differential-queries.ts';
import { interleavedWrites } from './differential-writes.ts';

// Sized for CI's time (3,000 generated queries and their walks): the heavier run of issue 28,
// DIFFERENTIAL_PRODUCTS=100000 DIFFERENTIAL_ROUNDS=20 (10,000 queries), is the closing note's.
const PRODUCTS = Number(process.env.DIFFERENTIAL_PRODUCTS ?? 20_000);
const ROUNDS = Number(process.env.DIFFERENTIAL_ROUNDS ?? 6);
const QUERIES_PER_ROUND = 500;
const WALKS_PER_ROUND = 30;
const WRITES_PER_ROUND = 80;
const SEEDER = fileURLToPath(new URL('../fixtures/seed-sqlite-catalogue.ts', import.meta.url));

type Outcome = { ok: true; page: ProductSearchPage } | { ok: false; code: string };

async function outcome(search: Promise<ProductSearchPage>): Promise<Outcome> {
  try {
    return { ok: true, page: await search };
  } catch (error) {
    return { ok: false, code: (error as { code?: string }).code ?? String(error) };
  }
}

/** What the two engines must agree on: ids in order, totals, paging, and the facets in order. */
function answer(result: Outcome) {
  if (!result.ok) return { error: result.code };
  const { page } = result;
  return {
    ids: page.products.map((product) => product.id),
    total: page.total,
    totalIsLowerBound: page.totalIsLowerBound,
    hasMore: page.hasMore,
    hasToken: page.syncToken !== null,
    aggregations:
      page.aggregations === undefined
        ? null
        : Object.entries(page.aggregations).map(([facet, counts]) => [facet, Object.entries(counts)]),
  };
}

test(
  'the bitmap engine answers every generated query of spec 4.1 (ids in order, totals, totalIsLowerBound, aggregations, keyset walks) as the FTS5 engine does, with writes interleaved',
  async () => {
    const oracle = await sqliteStore();
    try {
      // Seeded in a process of its own, as `pnpm catalog seed` seeds (the fixture says why).
      await promisify(execFile)(process.execPath, [
        '--conditions=source',
        SEEDER,
        oracle.databasePath,
        String(PRODUCTS),
        'differential',
      ]);
      const bitmap = await openReplicatedSearch(
        openSqliteRecordStore({ databasePath: oracle.databasePath }),
        () => openBitmapSearchOverRecords(oracle.databasePath, {}),
        { freshnessTimeoutMs: TEST_SEARCH_TIMEOUT_MS },
      );
      try {
        const rnd = seededRandom(28);
        const channels = (await oracle.store.webChannels.list()).map((channel) => channel.slug);
        let compared = 0;
        const same = async (query: ProductSearchQuery, what: string) => {
          const [expected, actual] = await Promise.all([
            outcome(oracle.store.productSearch.search(query)),
            outcome(bitmap.productSearch.search(query)),
          ]);
          expect(answer(actual), `${what}: ${JSON.stringify(query)}`).toEqual(answer(expected));
          compared += 1;
          return { expected, actual };
        };
        for (let round = 0; round < ROUNDS; round += 1) {
          const sampled = await oracle.store.productSearch.search({
            sort: 'name',
            from: Math.floor(rnd() * 5_000),
            size: 100,
            includeArchived: true,
          });
          const vocabulary: QueryVocabulary = { products: sampled.products, channels };
          for (let n = 0; n < QUERIES_PER_ROUND; n += 1) await same(drawQuery(rnd, vocabulary), 'query');
          for (let n = 0; n < WALKS_PER_ROUND; n += 1) {
            const first = { ...drawQuery(rnd, vocabulary), from: 0, size: 1 + Math.floor(rnd() * 40) };
            let { expected, actual } = await same(first, 'walk');
            // The FTS5 engine's cursor continued by the bitmap engine: the same key format.
            if (expected.ok && expected.page.syncToken !== null) {
              const next = { ...first, syncToken: expected.page.syncToken };
              await same(next, 'cursor handed over');
            }
            for (let page = 0; page < 6; page += 1) {
              if (!expected.ok || !actual.ok || expected.page.syncToken === null) break;
              const expectedNext = await outcome(
                oracle.store.productSearch.search({ ...first, syncToken: expected.page.syncToken }),
              );
              const actualNext = await outcome(
                bitmap.productSearch.search({ ...first, syncToken: actual.page.syncToken as string }),
              );
              expect(answer(actualNext), `walk page ${page + 2}: ${JSON.stringify(first)}`).toEqual(
                answer(expectedNext),
              );
              compared += 1;
              expected = expectedNext;
              actual = actualNext;
            }
          }
          await interleavedWrites(oracle.store, rnd, sampled.products, channels, WRITES_PER_ROUND);
        }
        expect(compared).toBeGreaterThan(ROUNDS * QUERIES_PER_ROUND);
        process.stderr.write(`differential: ${compared} answers compared over ${PRODUCTS} products\n`);
      } finally {
        await bitmap.close();
      }
    } finally {
      await oracle.dispose();
    }
  },
  30 * 60_000,
);
