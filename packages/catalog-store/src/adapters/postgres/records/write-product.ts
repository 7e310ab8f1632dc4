import type pg from 'pg';
import type { ProductInput, RelatedProductInput } from '../../../model/product.ts';
import { resolveBrand } from '../../../records/brand-records.ts';
import { changedRelationTargets } from '../../../write-rules/changed-relation-targets.ts';
import {
  checkWriteMode,
  createdAtOf,
  prepareProduct,
  type WriteMode,
  type WrittenProduct,
} from '../../../write-rules/product-write.ts';
import { WRITTEN_COLUMNS, writtenValues } from '../../product-columns.ts';
import { channelValues, registeredChannels } from './channel-visibility.ts';
import { runInWriteTransaction } from './postgres-record-engine.ts';

const INSERTED_COLUMNS = [...WRITTEN_COLUMNS, 'id', 'created_at'];
const INSERT_SQL = `INSERT INTO products (${INSERTED_COLUMNS.join(', ')})
  VALUES (${INSERTED_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING seq`;
const UPDATE_SQL = `UPDATE products SET ${WRITTEN_COLUMNS.map((column, i) => `${column} = $${i + 1}`).join(', ')},
  version = version + 1 WHERE seq = $${WRITTEN_COLUMNS.length + 1}`;

/**
 * Products named in `ids` take the write's updatedAt unless they have it already: their derived
 * "used by" entries changed (changed-relation-targets.ts).
 */
export async function bumpRelationTargets(client: pg.PoolClient, ids: readonly string[], ts: number) {
  if (ids.length === 0) return;
  await client.query(
    'UPDATE products SET updated_at = $1, version = version + 1 WHERE id = ANY($2) AND updated_at < $1',
    [ts, ids],
  );
}

async function writeRelations(
  client: pg.PoolClient,
  seq: number,
  relations: readonly RelatedProductInput[],
  ts: number,
  created: boolean,
) {
  let previous: RelatedProductInput[] = [];
  if (!created) {
    const removed = await client.query<RelatedProductInput & { position: number }>(
      `DELETE FROM product_relations WHERE product_seq = $1
       RETURNING position, related_id AS "productId", relation_type AS "relationType", qty`,
      [seq],
    );
    previous = removed.rows.sort((a, b) => a.position - b.position);
  }
  if (relations.length > 0) {
    await client.query(
      `INSERT INTO product_relations (product_seq, position, related_id, relation_type, qty, note)
       SELECT $1, t.position - 1, t.related_id, t.relation_type, t.qty, t.note
       FROM unnest($2::text[], $3::text[], $4::float8[], $5::text[])
         WITH ORDINALITY AS t (related_id, relation_type, qty, note, position)`,
      [
        seq,
        relations.map((relation) => relation.productId),
        relations.map((relation) => relation.relationType),
        relations.map((relation) => relation.qty),
        relations.map((relation) => relation.note ?? null),
      ],
    );
  }
  await bumpRelationTargets(client, changedRelationTargets(previous, relations), ts);
}

async function writeVisibility(
  client: pg.PoolClient,
  seq: number,
  visibility: Readonly<Record<string, boolean>>,
  created: boolean,
) {
  if (!created) await client.query('DELETE FROM product_channel_visibility WHERE product_seq = $1', [seq]);
  if (Object.keys(visibility).length === 0) return;
  const values = channelValues(await registeredChannels(client), visibility);
  await client.query(
    `INSERT INTO product_channel_visibility (channel_id, product_seq, visible)
     SELECT t.channel_id, $1, t.visible FROM unnest($2::integer[], $3::boolean[]) AS t (channel_id, visible)`,
    [seq, values.map(([channel]) => channel), values.map(([, visible]) => visible)],
  );
}

/** Writes one product inside the caller's write transaction, stamping it with the transaction's `ts`. */
export async function writeProduct(
  client: pg.PoolClient,
  raw: ProductInput,
  ts: number,
  mode: WriteMode,
): Promise<WrittenProduct> {
  const { input, id, relations } = prepareProduct(raw);
  const found = await client.query<{ seq: number }>('SELECT seq FROM products WHERE id = $1', [id]);
  const existing = found.rows[0]?.seq;
  checkWriteMode(mode, id, existing !== undefined);
  const values = writtenValues(
    input,
    await runInWriteTransaction(client, ts, resolveBrand(input.brandName, input.brandSlug, ts)),
    ts,
  );
  let seq: number;
  if (existing === undefined) {
    const inserted = await client.query<{ seq: number }>(INSERT_SQL, [...values, id, createdAtOf(input, ts)]);
    seq = inserted.rows[0]?.seq as number;
  } else {
    seq = existing;
    await client.query(UPDATE_SQL, [...values, seq]);
  }
  const created = existing === undefined;
  await writeRelations(client, seq, relations, ts, created);
  await writeVisibility(client, seq, input.webVisibility ?? {}, created);
  return { seq, id, created };
}
