import type pg from 'pg';
import { whileDoing } from './server-error.ts';

/** A constraint or index dropped before the rows and built again after them. */
interface Deferred {
  readonly name: string;
  readonly drop: string;
  readonly create: string;
}

interface Constraints {
  readonly keys: Deferred[];
  readonly foreignKeys: Deferred[];
}

/** Primary keys and unique constraints, and apart from them the foreign keys that point at them. */
async function constraints(client: pg.PoolClient, tables: readonly string[]): Promise<Constraints> {
  const result = await client.query<{ owner: string; name: string; definition: string; foreign: boolean }>(
    `SELECT conrelid::regclass::text AS owner, quote_ident(conname) AS name,
       pg_get_constraintdef(oid) AS definition, contype = 'f' AS foreign
     FROM pg_constraint WHERE contype IN ('f', 'p', 'u') AND conrelid = ANY($1::regclass[]) ORDER BY oid`,
    [tables],
  );
  const deferred = result.rows.map(({ owner, name, definition, foreign }) => ({
    foreign,
    name,
    drop: `ALTER TABLE ${owner} DROP CONSTRAINT ${name}`,
    create: `ALTER TABLE ${owner} ADD CONSTRAINT ${name} ${definition}`,
  }));
  return {
    keys: deferred.filter((constraint) => !constraint.foreign),
    foreignKeys: deferred.filter((constraint) => constraint.foreign),
  };
}

/** The indexes that back no constraint; a constraint's index goes and comes back with it. */
async function plainIndexes(client: pg.PoolClient, tables: readonly string[]): Promise<Deferred[]> {
  const result = await client.query<{ name: string; definition: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
     FROM pg_index i WHERE i.indrelid = ANY($1::regclass[]) AND NOT EXISTS (
       SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = i.indrelid)
     ORDER BY i.indexrelid`,
    [tables],
  );
  return result.rows.map(({ name, definition }) => ({
    name,
    drop: `DROP INDEX ${name}`,
    create: definition,
  }));
}

async function build(client: pg.PoolClient, deferred: Deferred): Promise<void> {
  try {
    await client.query(deferred.create);
  } catch (error) {
    throw whileDoing(`building ${deferred.name}`, error);
  }
}

/**
 * Drops the keys, foreign keys and indexes of `tables` for a load into them, and returns what
 * builds them again, from the definitions the target's catalogue gives. Built after the rows, an
 * index is one sort instead of a million insertions and a foreign key one join instead of a lookup
 * per row (at 1M products the whole copy went from 3.5 minutes to under one); every row is checked
 * all the same, and a violation (a duplicate, a dangling reference) fails the transaction. The
 * drops lock the tables until the commit: readers of the target wait for the copy rather than see
 * it half done.
 */
export async function deferIndexes(
  client: pg.PoolClient,
  tables: readonly string[],
): Promise<() => Promise<void>> {
  const { keys, foreignKeys } = await constraints(client, tables);
  const indexes = await plainIndexes(client, tables);
  for (const deferred of [...foreignKeys, ...keys, ...indexes]) await client.query(deferred.drop);
  return async () => {
    // The sorts of a million keys stay in memory rather than spill to disk; for this transaction only.
    await client.query("SET LOCAL maintenance_work_mem = '256MB'");
    for (const deferred of [...keys, ...indexes, ...foreignKeys]) await build(client, deferred);
  };
}
