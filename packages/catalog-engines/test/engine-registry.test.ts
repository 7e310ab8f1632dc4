import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_SEARCH_TIMEOUT_MS } from '@catalog/store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  defaultRegistry,
  EngineConfigurationError,
  engineSelection,
  openCatalogue,
  selectEngines,
} from '../src/index.ts';

const dataDirs: string[] = [];
afterEach(() => {
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-engines-'));
  dataDirs.push(dir);
  return dir;
}

const POSTGRES = {
  engine: 'postgres',
  url: 'postgres://catalog@127.0.0.1:5432/catalog',
  dataDir: '/tmp',
} as const;

describe('the default engine registry', () => {
  it('registers the two records engines and the three search engines', () => {
    expect(Object.keys(defaultRegistry.records).sort()).toEqual(['postgres', 'sqlite']);
    expect([...defaultRegistry.search.keys()].sort()).toEqual(['bitmap', 'sqlite-fts5', 'sqlite-replica']);
  });

  it("defaults each records engine's search as today: FTS5 in the file, the replica on PostgreSQL", () => {
    expect(engineSelection({ dataDir: '/tmp', databaseUrl: undefined, searchEngine: undefined })).toEqual({
      records: { engine: 'sqlite', dataDir: '/tmp' },
      search: 'sqlite-fts5',
    });
    expect(selectEngines(POSTGRES, undefined).search).toBe('sqlite-replica');
  });

  it('refuses an unknown SEARCH_ENGINE, listing the registered names', () => {
    const selecting = () =>
      engineSelection({ dataDir: '/tmp', databaseUrl: undefined, searchEngine: 'elastic' });
    expect(selecting).toThrow(EngineConfigurationError);
    expect(selecting).toThrow(/"elastic".*sqlite-fts5, sqlite-replica, bitmap/);
  });

  it('refuses sqlite-fts5 over PostgreSQL records: it searches the records’ own file', () => {
    expect(() => selectEngines(POSTGRES, 'sqlite-fts5')).toThrow(EngineConfigurationError);
  });

  it('answers a search through sqlite-replica over the embedded records', async () => {
    const selection = selectEngines({ engine: 'sqlite', dataDir: dataDir() }, 'sqlite-replica');
    const store = await openCatalogue(selection, {
      searchWorkers: 1,
      searchTimeoutMs: TEST_SEARCH_TIMEOUT_MS,
      freshnessTimeoutMs: 60_000,
    });
    try {
      const product = await store.products.create({
        id: randomUUID(),
        productCode: 'REG-1',
        name: 'Through the registry',
      });
      const page = await store.productSearch.search({ q: 'REG-1' });
      expect(page.products.map((hit) => hit.id)).toEqual([product.id]);
      expect(store.searchReplicaProgress?.()).toMatchObject({ state: 'built' });
    } finally {
      await store.close();
    }
  });

  it('answers through bitmap over the embedded records, and finds a write at the next search', async () => {
    const selection = selectEngines({ engine: 'sqlite', dataDir: dataDir() }, 'bitmap');
    const store = await openCatalogue(selection, { freshnessTimeoutMs: 60_000 });
    try {
      const product = await store.products.create({
        id: randomUUID(),
        productCode: 'BIT-1',
        name: 'Found through the bitmap engine',
      });
      const page = await store.productSearch.search({ q: 'BIT-1' });
      expect(page.products.map((hit) => hit.id)).toEqual([product.id]);
      expect(page.source).toBe('bitmap');
      expect(store.searchReplicaProgress?.()).toMatchObject({ state: 'built' });
    } finally {
      await store.close();
    }
  });
});
