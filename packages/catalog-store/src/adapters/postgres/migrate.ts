import type pg from 'pg';
import { type Migration, SchemaTooNewError } from '../migration.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { openPool } from './open-pool.ts';

export interface PostgresMigrationReport {
  fromVersion: number;
  toVersion: number;
  applied: string[];
}

/** Any constant: the key of the advisory lock that makes concurrent migrations take turns. */
const MIGRATION_LOCK = 0x63617461;

/**
 * Applies pending migrations in one transaction (PostgreSQL's DDL is transactional): a failure
 * leaves the schema at its previous version, and a process racing us waits on the advisory lock
 * and then finds nothing left to do.
 */
export async function migratePostgres(
  pool: pg.Pool,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<PostgresMigrationReport> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const current = await client.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM schema_migrations',
    );
    const fromVersion = current.rows[0]?.version ?? 0;
    const known = migrations.at(-1)?.version ?? 0;
    if (fromVersion > known) throw new SchemaTooNewError(fromVersion, known);
    const applied: string[] = [];
    for (const migration of migrations) {
      if (migration.version <= fromVersion) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push(`${migration.version} ${migration.name}`);
    }
    await client.query('COMMIT');
    return { fromVersion, toVersion: Math.max(fromVersion, known), applied };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** `pnpm catalog migrate` on PostgreSQL: migrates the database at `url` and closes its connection. */
export async function migratePostgresDatabase(url: string): Promise<PostgresMigrationReport> {
  const pool = openPool({ url, maxConnections: 1 });
  try {
    return await migratePostgres(pool);
  } finally {
    await pool.end();
  }
}
