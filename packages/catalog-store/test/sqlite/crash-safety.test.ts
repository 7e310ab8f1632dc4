import { spawn } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDatabaseIntegrity } from '../../src/adapters/sqlite/index.ts';
import { aProduct, TEST_SEARCH_TIMEOUT_MS } from '../../src/testing/index.ts';
import { openSqliteCatalogStore, type SqliteStoreHandle, sqliteStore } from '../support/sqlite-factory.ts';

const WRITER = fileURLToPath(new URL('../fixtures/batch-writer.ts', import.meta.url));
const BATCH = 500;
const SQLITE_BUSY = 5;

/** True while another connection holds the write lock, that is, while the writer is inside a transaction. */
function writerInsideTransaction(probe: DatabaseSync): boolean {
  try {
    probe.exec('BEGIN IMMEDIATE');
  } catch (error) {
    if ((error as { errcode?: number }).errcode === SQLITE_BUSY) return true;
    throw error;
  }
  probe.exec('ROLLBACK');
  return false;
}

/**
 * Starts the writer and, once it has begun batch `fromBatch`, SIGKILLs it inside a write transaction:
 * seen holding the write lock, it is stopped (SIGSTOP) and looked at again, so the kill lands on a
 * state that is known rather than on a guess about how long a batch takes. Resolves with the last
 * batch the writer reported committed.
 */
function killWriterInsideTransaction(
  databasePath: string,
  fromBatch: number,
  method: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=source', WRITER, databasePath, String(BATCH), method],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const probe = new DatabaseSync(databasePath, { timeout: 0 });
    let committed = -1;
    let hunting = false;
    let stderr = '';
    const hunt = async (): Promise<void> => {
      while (child.exitCode === null && child.signalCode === null) {
        if (writerInsideTransaction(probe)) {
          child.kill('SIGSTOP');
          // Stopped: the writer can no longer commit, so a second look is the state it dies in.
          if (writerInsideTransaction(probe)) {
            child.kill('SIGKILL');
            return;
          }
          child.kill('SIGCONT');
        }
        await setTimeout(1);
      }
    };
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        const [event, n] = line.split(' ');
        if (event === 'committed') committed = Number(n);
        if (event === 'begin' && Number(n) >= fromBatch && !hunting) {
          hunting = true;
          hunt().catch(reject);
        }
      }
    });
    // 'close' comes after the last line the writer wrote has been read.
    child.on('close', (_code, signal) => {
      probe.close();
      if (signal === 'SIGKILL') resolve(committed);
      else reject(new Error(`writer exited on its own: ${stderr}`));
    });
  });
}

describe('crash safety', () => {
  let handle: SqliteStoreHandle | undefined;
  afterEach(async () => handle?.dispose());

  // bulkLoad drops and recreates the insert triggers inside its transaction: killed there, the
  // database must come back with every trigger, every derived row and every document of whole batches.
  it.each(['upsertMany', 'bulkLoad'])(
    'a writer (%s) killed mid-batch leaves a sound database with only whole batches',
    async (method) => {
      handle = await sqliteStore();
      await handle.store.close();
      const triggers = (db: DatabaseSync) =>
        db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' ORDER BY name").all();
      const fresh = new DatabaseSync(handle.databasePath, { readOnly: true });
      const triggersBefore = triggers(fresh);
      fresh.close();
      const committed = await killWriterInsideTransaction(handle.databasePath, 3, method);

      const integrity = checkDatabaseIntegrity(handle.databasePath);
      expect(integrity).toEqual({ ok: true, problems: [] });
      // Killed inside the batch after the last one it reported committed (batch 3 or a later one).
      expect(committed).toBeGreaterThanOrEqual(2);

      const db = new DatabaseSync(handle.databasePath, { readOnly: true });
      try {
        const products = (db.prepare('SELECT count(*) AS n FROM products').get() as { n: number }).n;
        expect(products % BATCH).toBe(0);
        expect(products / BATCH).toBe(committed + 1);
        const relations = (db.prepare('SELECT count(*) AS n FROM product_relations').get() as { n: number })
          .n;
        expect(relations).toBe(products * 2);
        const visibility = (
          db.prepare('SELECT count(*) AS n FROM product_channel_visibility').get() as { n: number }
        ).n;
        expect(visibility).toBe(products);
        const indexed = (
          db.prepare("SELECT count(*) AS n FROM product_fts WHERE product_fts MATCH 'batch'").get() as {
            n: number;
          }
        ).n;
        expect(indexed).toBe(products);
        const documents = (db.prepare('SELECT count(*) AS n FROM product_documents').get() as { n: number })
          .n;
        expect(documents).toBe(products);
        expect(db.prepare('SELECT count(*) AS n FROM product_documents_stale').get()).toEqual({ n: 0 });
        expect(triggers(db)).toEqual(triggersBefore);
      } finally {
        db.close();
      }

      // The store opens and writes again after the crash.
      handle.store = openSqliteCatalogStore({
        databasePath: handle.databasePath,
        searchWorkers: 1,
        searchTimeoutMs: TEST_SEARCH_TIMEOUT_MS,
      });
      expect(await handle.store.products.count()).toBeGreaterThan(0);
    },
  );

  // A load into an empty catalogue is one transaction with the secondary indexes and insert triggers
  // dropped inside it: killed there, it must leave the empty catalogue with its whole schema, and
  // nothing for the next open to repair.
  it('a load into an empty catalogue killed mid-load leaves it empty, with every index and trigger', async () => {
    handle = await sqliteStore();
    await handle.store.close();
    const schema = (db: DatabaseSync) =>
      db
        .prepare(
          "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE type IN ('index', 'trigger') ORDER BY name",
        )
        .all();
    const fresh = new DatabaseSync(handle.databasePath, { readOnly: true });
    const schemaBefore = schema(fresh);
    fresh.close();
    expect(schemaBefore.some((row) => row.name === 'products_sort_name')).toBe(true);
    const committed = await killWriterInsideTransaction(handle.databasePath, 3, 'bulkLoadAll');
    expect(committed).toBe(-1);

    expect(checkDatabaseIntegrity(handle.databasePath)).toEqual({ ok: true, problems: [] });
    const db = new DatabaseSync(handle.databasePath, { readOnly: true });
    try {
      for (const table of ['products', 'product_relations', 'product_fts', 'product_documents', 'brands']) {
        expect(db.prepare(`SELECT count(*) AS n FROM ${table}`).get()).toEqual({ n: 0 });
      }
      expect(schema(db)).toEqual(schemaBefore);
    } finally {
      db.close();
    }

    handle.store = openSqliteCatalogStore({
      databasePath: handle.databasePath,
      searchWorkers: 1,
      searchTimeoutMs: TEST_SEARCH_TIMEOUT_MS,
    });
    await handle.store.products.bulkLoadAll([[aProduct({ name: 'after the crash' })]]);
    const page = await handle.store.productSearch.search({ q: 'crash', sort: 'name', size: 5 });
    expect(page.products.map((product) => product.name)).toEqual(['after the crash']);
  });
});
