import type pg from 'pg';

/** Seals the source deployment's signing keys for the version they will be stored at. */
export type SealSigningKeys = (version: number) => Uint8Array;

/**
 * Writes the source deployment's signing keys as the target's key set (migration 2's row), sealed
 * by the caller for the version they take. A set already there was made by a token server started
 * on the empty target, and no token it signed can be held by anyone (the target has no client and
 * no administrator: refuseNonEmptyTarget), so it is replaced. The table is locked to the commit,
 * so a token server starting meanwhile waits and then finds the copied set rather than making one.
 */
export async function copySigningKeys(client: pg.PoolClient, seal: SealSigningKeys): Promise<void> {
  await client.query('LOCK TABLE signing_key_set IN EXCLUSIVE MODE');
  const current = await client.query<{ version: number }>('SELECT version FROM signing_key_set');
  const version = (current.rows[0]?.version ?? 0) + 1;
  await client.query(
    `INSERT INTO signing_key_set (version, sealed, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (only_row) DO UPDATE
     SET version = EXCLUDED.version, sealed = EXCLUDED.sealed, updated_at = EXCLUDED.updated_at`,
    [version, seal(version), Date.now()],
  );
}
