import { spawn } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDatabaseIntegrity, openSqliteCatalogStore } from '../../src/index.ts';
import { type SqliteStoreHandle, sqliteStore } from '../support/sqlite-factory.ts';

const WRITER = fileURLToPath(new URL('../fixtures/batch-writer.ts', import.meta.url));
const BATCH = 1500;

/** Starts the writer and SIGKILLs it shortly after it has begun batch `killDuring`. */
function runWriterUntilKilled(databasePath: string, killDuring: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=source', WRITER, databasePath, String(BATCH)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let committed = -1;
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        const [event, n] = line.split(' ');
        if (event === 'committed') committed = Number(n);
        if (event === 'begin' && Number(n) === killDuring) setTimeout(() => child.kill('SIGKILL'), 40);
      }
    });
    child.on('exit', (_code, signal) => {
      if (signal === 'SIGKILL') resolve(committed);
      else reject(new Error(`writer exited on its own: ${stderr}`));
    });
  });
}

describe('crash safety', () => {
  let handle: SqliteStoreHandle | undefined;
  afterEach(async () => handle?.dispose());

  it('a writer killed mid-batch leaves a sound database with only whole batches', async () => {
    handle = await sqliteStore();
    await handle.store.close();
    const committed = await runWriterUntilKilled(handle.databasePath, 3);

    const integrity = checkDatabaseIntegrity(handle.databasePath);
    expect(integrity).toEqual({ ok: true, problems: [] });
    // The kill landed inside batch 3: batches 0-2 committed, batch 3 had begun.
    expect(committed).toBe(2);

    const db = new DatabaseSync(handle.databasePath, { readOnly: true });
    try {
      const products = (db.prepare('SELECT count(*) AS n FROM products').get() as { n: number }).n;
      expect(products % BATCH).toBe(0);
      expect(products / BATCH).toBe(committed + 1);
      const relations = (db.prepare('SELECT count(*) AS n FROM product_relations').get() as { n: number }).n;
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
    } finally {
      db.close();
    }

    // The store opens and writes again after the crash.
    handle.store = openSqliteCatalogStore({ databasePath: handle.databasePath, searchWorkers: 1 });
    expect(await handle.store.products.count()).toBeGreaterThan(0);
  });
});
