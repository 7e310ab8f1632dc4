import pg from 'pg';
import type { RecordStoreHandle } from '../../src/testing/index.ts';
import type { BulkLoadEngine } from '../contract/bulk-load.contract.ts';
import { postgresStore } from './postgres-factory.ts';

/** A connection to the handle's schema, for reading what the ports do not show. */
export async function inSchema<T>(
  handle: RecordStoreHandle,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  if (handle.location.engine !== 'postgres') throw new Error('a PostgreSQL store was expected');
  const { url, schema } = handle.location;
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Every table a product's state is made of on PostgreSQL, with each updatedAt replaced by its rank. */
async function tables(handle: RecordStoreHandle) {
  const state = await inSchema(handle, async (client) => {
    const all = async (sql: string) => (await client.query(sql)).rows;
    return {
      products: await all('SELECT * FROM products ORDER BY seq'),
      relations: await all('SELECT * FROM product_relations ORDER BY product_seq, position'),
      visibility: await all('SELECT * FROM product_channel_visibility ORDER BY channel_id, product_seq'),
      brands: await all('SELECT seq, name, slug, archived FROM brands ORDER BY seq'),
    };
  });
  const stamps = [...new Set(state.products.map((row) => Number(row.updated_at)))].sort((a, b) => a - b);
  const rank = new Map(stamps.map((t, i) => [t, `stamp-${i}`]));
  const stamp = (t: unknown) => rank.get(Number(t)) ?? t;
  return {
    ...state,
    products: state.products.map((row) => ({
      ...row,
      created_at: stamp(row.created_at),
      updated_at: stamp(row.updated_at),
    })),
  };
}

/** PostgreSQL under the bulk-load contract. */
export const postgresBulkLoadEngine: BulkLoadEngine<RecordStoreHandle> = {
  open: postgresStore,
  storedState: tables,
  schemaObjects: (handle) =>
    inSchema(handle, async (client) => ({
      indexes: (
        await client.query(
          'SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname',
        )
      ).rows,
      triggers: (
        await client.query(
          `SELECT tgname, tgenabled FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
           WHERE c.relnamespace = current_schema()::regnamespace ORDER BY tgname`,
        )
      ).rows,
    })),
};
