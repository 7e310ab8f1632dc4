import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/adapters/sqlite/index.ts';
import { catalogDatabasePath, SchemaTooNewError } from '../../src/index.ts';
import { openSqliteCatalogStore, tempDataDir } from '../support/sqlite-factory.ts';

const MIGRATE_ONCE = fileURLToPath(new URL('../fixtures/migrate-once.ts', import.meta.url));
const run = promisify(execFile);

describe('migrations', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('brings a new file to the latest version once; a second run applies nothing', () => {
    dir = tempDataDir();
    const path = catalogDatabasePath(dir);
    const first = migrateDatabase(path);
    expect(first.fromVersion).toBe(0);
    expect(first.applied.length).toBeGreaterThan(0);
    const second = migrateDatabase(path);
    expect(second).toEqual({
      fromVersion: first.toVersion,
      toVersion: first.toVersion,
      applied: [],
      searchDocumentsWritten: 0,
    });
  });

  it('turns on WAL mode and foreign keys', async () => {
    dir = tempDataDir();
    const path = catalogDatabasePath(dir);
    migrateDatabase(path);
    const db = new DatabaseSync(path);
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    db.close();
    const store = openSqliteCatalogStore({ databasePath: path });
    await expect(
      store.products.create({ productCode: 'a', name: 'b', webVisibility: { ghost: true } }),
    ).rejects.toThrow();
    await store.close();
  });

  it('two processes migrating the same new file at once leave one schema, applied once', async () => {
    dir = tempDataDir();
    const path = catalogDatabasePath(dir);
    const reports = await Promise.all([
      run(process.execPath, ['--conditions=source', MIGRATE_ONCE, path]),
      run(process.execPath, ['--conditions=source', MIGRATE_ONCE, path]),
    ]);
    const applied = reports.map(({ stdout }) => (JSON.parse(stdout) as { applied: string[] }).applied.length);
    expect(applied.sort()).toEqual([0, applied[1]]);
    const db = new DatabaseSync(path, { readOnly: true });
    const versions = db.prepare('SELECT version FROM schema_migrations').all();
    db.close();
    expect(versions).toHaveLength(applied[1] as number);
  });

  it('refuses a database whose schema is newer than the code', () => {
    dir = tempDataDir();
    const path = catalogDatabasePath(dir);
    migrateDatabase(path);
    const db = new DatabaseSync(path);
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 'x')").run();
    db.close();
    expect(() => migrateDatabase(path)).toThrow(SchemaTooNewError);
  });
});
