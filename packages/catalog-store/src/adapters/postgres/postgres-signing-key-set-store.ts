import type pg from 'pg';
import type { SealedKeySet, SigningKeySetStore } from '../../ports/signing-key-set-store.ts';
import { migratePostgres } from './migrate.ts';
import { openPool, type PostgresConnectionOptions } from './open-pool.ts';

interface KeySetRow {
  version: number;
  sealed: Buffer;
}

/** Migration 2's one row. Single statements: no catalogue write, so no write clock and no feed entry. */
class PostgresSigningKeySetStore implements SigningKeySetStore {
  readonly #pool: pg.Pool;
  #ended: Promise<void> | undefined;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async read(): Promise<SealedKeySet | undefined> {
    const result = await this.#pool.query<KeySetRow>('SELECT version, sealed FROM signing_key_set');
    const row = result.rows[0];
    return row === undefined ? undefined : { version: row.version, sealed: row.sealed };
  }

  async version(): Promise<number> {
    const result = await this.#pool.query<{ version: number }>('SELECT version FROM signing_key_set');
    return result.rows[0]?.version ?? 0;
  }

  async createOnce(sealed: Uint8Array): Promise<SealedKeySet> {
    await this.#pool.query(
      'INSERT INTO signing_key_set (version, sealed, updated_at) VALUES (1, $1, $2) ON CONFLICT (only_row) DO NOTHING',
      [sealed, Date.now()],
    );
    // A statement of its own: the insert's snapshot may predate the racing winner's commit.
    const stored = await this.read();
    if (stored === undefined) throw new Error('the signing key set disappeared while being created');
    return stored;
  }

  async replace(expectedVersion: number, sealed: Uint8Array): Promise<boolean> {
    // A racing update waits for the row lock, then finds the version moved and matches nothing.
    const result = await this.#pool.query(
      'UPDATE signing_key_set SET version = version + 1, sealed = $2, updated_at = $3 WHERE version = $1',
      [expectedVersion, sealed, Date.now()],
    );
    return result.rowCount === 1;
  }

  /** Idempotent, like the record stores' close. */
  close(): Promise<void> {
    this.#ended ??= this.#pool.end();
    return this.#ended;
  }
}

/**
 * The signing-key set of a PostgreSQL deployment on a pool of its own (one connection: the token
 * server polls the version about once a second, the operator CLI writes once), migrating the schema
 * first when needed.
 */
export async function openPostgresSigningKeySetStore(
  options: PostgresConnectionOptions,
): Promise<SigningKeySetStore> {
  const pool = openPool({ ...options, maxConnections: options.maxConnections ?? 1 });
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return new PostgresSigningKeySetStore(pool);
}
