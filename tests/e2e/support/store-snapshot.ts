// What is stored, read straight from the stack's records through a read-only connection: the content
// tables (products and their relations and channel visibility, brands, web channels, M2M clients,
// administrators; on SQLite also meta and the facet counts, which PostgreSQL does not have: its search
// structures live in each API instance's replica). A client's usage counter and last-use time move on
// every call and token exchange, and are left out.
import type { StorageLocation } from '@catalog/store';
import { openStoreConnection, type Param, type Row, type StoreConnection } from './store-connection.ts';

type Engine = StorageLocation['engine'];

/** Content tables with the columns that legitimately move left out. */
const TABLES: Readonly<
  Record<string, { readonly key: string; readonly skip?: readonly string[]; readonly only?: Engine }>
> = {
  products: { key: 'seq' },
  product_relations: { key: 'product_seq, position' },
  product_channel_visibility: { key: 'channel_id, product_seq' },
  brands: { key: 'seq' },
  web_channels: { key: 'id' },
  m2m_clients: { key: 'client_id', skip: ['usage_count', 'last_used_at'] },
  admin_users: { key: 'id' },
  meta: { key: 'key', only: 'sqlite' },
  facet_counts: { key: 'facet, value, archived', only: 'sqlite' },
};

const COLUMNS_OF: Readonly<Record<Engine, string>> = {
  sqlite: 'SELECT name FROM pragma_table_info($1)',
  postgres: `SELECT column_name AS name FROM information_schema.columns
              WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
};

export type StoreSnapshot = ReadonlyMap<string, ReadonlyMap<string, string>>;

export interface StoreReader {
  readonly engine: Engine;
  /** Every row of every content table, keyed by table then primary key, as JSON. */
  snapshot(): Promise<StoreSnapshot>;
  /** Differences between two snapshots (empty when equal), at most `limit` lines. */
  diff(before: StoreSnapshot, after: StoreSnapshot, limit?: number): string[];
  /** Raw read-only SQL (`$1…` parameters), for the suites' own checks. */
  all(sql: string, ...params: Param[]): Promise<Row[]>;
  close(): Promise<void>;
}

function diff(before: StoreSnapshot, after: StoreSnapshot, limit = 10): string[] {
  const lines: string[] = [];
  for (const [table, rowsBefore] of before) {
    const rowsAfter = after.get(table) ?? new Map<string, string>();
    for (const [key, row] of rowsBefore) {
      const now = rowsAfter.get(key);
      if (now === undefined) lines.push(`${table} ${key}: deleted (${row.slice(0, 200)})`);
      else if (now !== row) lines.push(`${table} ${key}: ${row.slice(0, 300)} → ${now.slice(0, 300)}`);
    }
    for (const [key, row] of rowsAfter) {
      if (!rowsBefore.has(key)) lines.push(`${table} ${key}: inserted ${row.slice(0, 300)}`);
    }
  }
  return lines.slice(0, limit);
}

async function contentReads(db: StoreConnection) {
  const reads: Array<{ table: string; keyColumns: string[]; sql: string }> = [];
  for (const [table, { key, skip = [], only }] of Object.entries(TABLES)) {
    if (only !== undefined && only !== db.engine) continue;
    const names = (await db.all(COLUMNS_OF[db.engine], table))
      .map((column) => String(column.name))
      .filter((name) => !skip.includes(name));
    if (names.length === 0) throw new Error(`table ${table} not found in the database`);
    const sql = `SELECT ${names.map((n) => `"${n}"`).join(', ')} FROM ${table} ORDER BY ${key}`;
    reads.push({ table, keyColumns: key.split(', '), sql });
  }
  return reads;
}

export async function openStoreReader(location: StorageLocation): Promise<StoreReader> {
  const db = await openStoreConnection(location, { readOnly: true });
  const reads = await contentReads(db).catch(async (error: unknown) => {
    await db.close();
    throw error;
  });
  return {
    engine: db.engine,
    snapshot: () =>
      db.reading(async () => {
        const tables = new Map<string, Map<string, string>>();
        for (const { table, keyColumns, sql } of reads) {
          const rows = new Map<string, string>();
          for (const row of await db.all(sql)) {
            rows.set(keyColumns.map((column) => String(row[column])).join('|'), JSON.stringify(row));
          }
          tables.set(table, rows);
        }
        return tables;
      }),
    diff,
    all: (sql, ...params) => db.all(sql, ...params),
    close: () => db.close(),
  };
}
