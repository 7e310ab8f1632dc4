import type pg from 'pg';
import type { ProductInput, RelatedProductInput } from '../../../model/product.ts';
import type { UpsertSummary } from '../../../ports/product-store.ts';
import { resolveBrand } from '../../../records/brand-records.ts';
import type { BrandRef } from '../../../write-rules/brand-rules.ts';
import { changedRelationTargets } from '../../../write-rules/changed-relation-targets.ts';
import type { CheckedBatch } from '../../../write-rules/product-batch.ts';
import { createdAtOf } from '../../../write-rules/product-write.ts';
import { WRITTEN_COLUMNS, writtenValues } from '../../product-columns.ts';
import { channelValues, registeredChannels } from './channel-visibility.ts';
import { copyLine, copyLines } from './copy-rows.ts';
import { runInWriteTransaction } from './postgres-record-engine.ts';
import { bumpRelationTargets, writeProduct } from './write-product.ts';

/** A product of the batch written set-based: the first occurrence of its id in the batch. */
interface Staged {
  seq: number;
  /** Its products row (`copyLine`): seq and the written columns, then a new product's id and createdAt. */
  line: string;
  relations: RelatedProductInput[];
}

interface SplitBatch {
  fresh: Staged[];
  replaced: Staged[];
  relationLines: string[];
  visibilityLines: string[];
  /** Inputs whose id came earlier in the batch, so updates: for the per-product path, in order. */
  later: ProductInput[];
}

const NEW_PRODUCT_COLUMNS = ['seq', ...WRITTEN_COLUMNS, 'id', 'created_at'];
const REPLACEMENT_COLUMNS = ['seq', ...WRITTEN_COLUMNS];
const RELATION_COLUMNS = ['product_seq', 'position', 'related_id', 'relation_type', 'qty', 'note'];
const VISIBILITY_COLUMNS = ['channel_id', 'product_seq', 'visible'];

// In pg_temp, named so: a table of the same name in the catalogue's schema is never the one meant.
const REPLACEMENTS = 'pg_temp.product_replacements';
const CREATE_REPLACEMENTS = `CREATE TEMP TABLE product_replacements ON COMMIT DROP AS
  SELECT ${REPLACEMENT_COLUMNS.join(', ')} FROM products WITH NO DATA`;
const APPLY_REPLACEMENTS = `UPDATE products p SET ${WRITTEN_COLUMNS.map((column) => `${column} = r.${column}`).join(', ')},
  version = p.version + 1 FROM ${REPLACEMENTS} r WHERE p.seq = r.seq`;

type BrandsOf = (inputs: readonly ProductInput[]) => Promise<Array<BrandRef | null>>;

/**
 * Each input's brand, resolved once per name and slug in the transaction and in input order:
 * `resolveBrand` creates a missing one, as the per-product path would, in the same order.
 */
function brandResolver(client: pg.PoolClient, ts: number): BrandsOf {
  const brands = new Map<string, BrandRef | null>();
  return async (inputs) => {
    const resolved: Array<BrandRef | null> = [];
    for (const input of inputs) {
      const key = `${input.brandSlug?.trim() ?? ''}\u0000${input.brandName?.trim() ?? ''}`;
      let brand = brands.get(key);
      if (brand === undefined) {
        brand = await runInWriteTransaction(client, ts, resolveBrand(input.brandName, input.brandSlug, ts));
        brands.set(key, brand);
      }
      resolved.push(brand);
    }
    return resolved;
  };
}

async function existingSeqs(client: pg.PoolClient, ids: readonly string[]): Promise<Map<string, number>> {
  const result = await client.query<{ id: string; seq: number }>(
    'SELECT id, seq FROM products WHERE id = ANY($1)',
    [ids],
  );
  return new Map(result.rows.map((row) => [row.id, row.seq]));
}

/**
 * Seqs for `count` new products: the next ones of the identity, in the order inserts one by one
 * would take them, reserved in one statement. Nothing else takes one meanwhile: every product is
 * inserted by a write transaction, and the caller's holds the write clock.
 */
async function newSeqs(client: pg.PoolClient, count: number): Promise<number[]> {
  if (count === 0) return [];
  const result = await client.query<{ first: number }>(
    `SELECT setval(s, nextval(s) + $1 - 1) - $1 + 1 AS first FROM pg_get_serial_sequence('products', 'seq') AS s`,
    [count],
  );
  const first = result.rows[0]?.first as number;
  return Array.from({ length: count }, (_, i) => first + i);
}

/**
 * Sorts a batch into new products, existing ones and ids given again, with every row to write:
 * brands resolved (and created) in input order as the per-product path does, every relation and
 * channel value checked before a seq is taken or anything of the products written.
 */
async function splitBatch(
  client: pg.PoolClient,
  { raw, products }: CheckedBatch,
  ts: number,
  brandsOf: BrandsOf,
  channels: ReadonlyMap<string, number>,
): Promise<SplitBatch> {
  const brands = await brandsOf(products.map((product) => product.input));
  const existing = await existingSeqs(
    client,
    products.map((product) => product.id),
  );
  const firsts: Array<{ index: number; visibility: Array<readonly [number, boolean]> }> = [];
  const later: ProductInput[] = [];
  const seen = new Set<string>();
  for (const [index, { input, id }] of products.entries()) {
    if (seen.has(id)) {
      later.push({ ...(raw[index] as ProductInput), id });
      continue;
    }
    seen.add(id);
    firsts.push({ index, visibility: channelValues(channels, input.webVisibility ?? {}) });
  }
  const seqs = await newSeqs(
    client,
    firsts.filter(({ index }) => !existing.has(products[index]?.id as string)).length,
  );
  const split: SplitBatch = { fresh: [], replaced: [], relationLines: [], visibilityLines: [], later };
  for (const { index, visibility } of firsts) {
    const { input, id, relations } = products[index] as (typeof products)[number];
    const values = writtenValues(input, brands[index] ?? null, ts);
    const known = existing.get(id);
    const seq = known ?? (seqs[split.fresh.length] as number);
    if (known === undefined) {
      split.fresh.push({ seq, line: copyLine([seq, ...values, id, createdAtOf(input, ts)]), relations });
    } else {
      split.replaced.push({ seq, line: copyLine([seq, ...values]), relations });
    }
    relations.forEach((relation, position) => {
      split.relationLines.push(
        copyLine([
          seq,
          position,
          relation.productId,
          relation.relationType,
          relation.qty,
          relation.note ?? null,
        ]),
      );
    });
    for (const [channel, visible] of visibility)
      split.visibilityLines.push(copyLine([channel, seq, visible]));
  }
  return split;
}

/**
 * Removes the relations and channel values of the products about to be replaced; returns the
 * products whose "used by" view the replacement changes.
 */
async function clearReplaced(client: pg.PoolClient, replaced: readonly Staged[]): Promise<string[]> {
  if (replaced.length === 0) return [];
  const seqs = replaced.map((product) => product.seq);
  const removed = await client.query<RelatedProductInput & { seq: number; position: number }>(
    `DELETE FROM product_relations WHERE product_seq = ANY($1)
     RETURNING product_seq AS seq, position, related_id AS "productId", relation_type AS "relationType", qty`,
    [seqs],
  );
  await client.query('DELETE FROM product_channel_visibility WHERE product_seq = ANY($1)', [seqs]);
  const previous = new Map<number, RelatedProductInput[]>(seqs.map((seq) => [seq, []]));
  for (const row of removed.rows.sort((a, b) => a.position - b.position)) previous.get(row.seq)?.push(row);
  return replaced.flatMap((product) =>
    changedRelationTargets(previous.get(product.seq) ?? [], product.relations),
  );
}

export type ProductBatchWriter = (batch: CheckedBatch) => Promise<UpsertSummary>;

/**
 * Writes checked batches inside the caller's write transaction stamped `ts`, committing what
 * `writeProduct` would commit for each input in order. The first occurrence of each id is written
 * set-based: new products COPYed straight into products under seqs taken from its identity in
 * input order, existing ones COPYed into a temporary table and updated from it, then every relation
 * and channel value COPYed, and the products whose "used by" view changed bumped in one statement
 * (a new product changes that of every product it names). An id given again later in the batch
 * takes the per-product path afterwards, in order. Every statement goes through the tables'
 * triggers and constraints, the change feed's included.
 */
export function productBatchWriter(client: pg.PoolClient, ts: number): ProductBatchWriter {
  const brandsOf = brandResolver(client, ts);
  let channels: Map<string, number> | undefined;
  let replacements = false;

  async function applyReplacements(replaced: readonly Staged[]) {
    if (replaced.length === 0) return;
    // Created once per transaction, which drops it at its end.
    await client.query(replacements ? `TRUNCATE ${REPLACEMENTS}` : CREATE_REPLACEMENTS);
    replacements = true;
    await copyLines(
      client,
      REPLACEMENTS,
      REPLACEMENT_COLUMNS,
      replaced.map((product) => product.line),
    );
    await client.query(APPLY_REPLACEMENTS);
  }

  return async (batch) => {
    channels ??= await registeredChannels(client);
    const split = await splitBatch(client, batch, ts, brandsOf, channels);
    const touched = await clearReplaced(client, split.replaced);
    await applyReplacements(split.replaced);
    await copyLines(
      client,
      'products',
      NEW_PRODUCT_COLUMNS,
      split.fresh.map((product) => product.line),
    );
    await copyLines(client, 'product_relations', RELATION_COLUMNS, split.relationLines);
    await copyLines(client, 'product_channel_visibility', VISIBILITY_COLUMNS, split.visibilityLines);
    for (const product of split.fresh)
      touched.push(...product.relations.map((relation) => relation.productId));
    await bumpRelationTargets(client, [...new Set(touched)], ts);
    for (const input of split.later) await writeProduct(client, input, ts, 'upsert');
    return { created: split.fresh.length, updated: batch.raw.length - split.fresh.length };
  };
}
