// What is stored, read straight from the stack's SQLite file through a read-only connection: the
// content tables (products and their relations and channel visibility, brands, web channels, M2M
// clients, administrators, meta, facet counts). A client's usage counter and last-use time move on
// every call and token exchange, and are left out.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** Content tables with the columns that legitimately move left out. */
const TABLES: Readonly<Record<string, { readonly key: string; readonly skip?: readonly string[] }>> = {
  products: { key: 'seq' },
  product_relations: { key: 'product_seq, position' },
  product_channel_visibility: { key: 'channel_id, product_seq' },
  brands: { key: 'seq' },
  web_channels: { key: 'id' },
  m2m_clients: { key: 'client_id', skip: ['usage_count', 'last_used_at'] },
  admin_users: { key: 'id' },
  meta: { key: 'key' },
  facet_counts: { key: 'facet, value, archived' },
};

export type StoreSnapshot = ReadonlyMap<string, ReadonlyMap<string, string>>;

export interface StoreReader {
  /** Every row of every content table, keyed by table then primary key, as JSON. */
  snapshot(): StoreSnapshot;
  /** Differences between two snapshots (empty when equal), at most `limit` lines. */
  diff(before: StoreSnapshot, after: StoreSnapshot, limit?: number): string[];
  /** Raw read-only SQL, for the fault suites' own checks. */
  all(sql: string, ...params: Array<string | number | null>): Record<string, unknown>[];
  close(): void;
}

export const databasePathOf = (dataDir: string) => join(dataDir, 'catalog.sqlite');

export function openStoreReader(dataDir: string): StoreReader {
  const db = new DatabaseSync(databasePathOf(dataDir), { readOnly: true, timeout: 15_000 });
  const columns = new Map<string, string[]>();
  for (const [table, { skip = [] }] of Object.entries(TABLES)) {
    const names = (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>)
      .map((column) => column.name)
      .filter((name) => !skip.includes(name));
    if (names.length === 0) throw new Error(`table ${table} not found in the database`);
    columns.set(table, names);
  }
  const reads = Object.entries(TABLES).map(([table, { key }]) => {
    const names = columns.get(table) ?? [];
    const keyColumns = key.split(', ');
    return {
      table,
      keyColumns,
      statement: db.prepare(`SELECT ${names.map((n) => `"${n}"`).join(', ')} FROM ${table} ORDER BY ${key}`),
    };
  });

  return {
    snapshot() {
      // One read transaction: every table from the same committed state.
      db.exec('BEGIN');
      try {
        const tables = new Map<string, Map<string, string>>();
        for (const { table, keyColumns, statement } of reads) {
          const rows = new Map<string, string>();
          for (const row of statement.all()) {
            rows.set(keyColumns.map((column) => String(row[column])).join('|'), JSON.stringify(row));
          }
          tables.set(table, rows);
        }
        return tables;
      } finally {
        db.exec('COMMIT');
      }
    },
    diff(before, after, limit = 10) {
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
    },
    all(sql, ...params) {
      return db.prepare(sql).all(...params) as Record<string, unknown>[];
    },
    close() {
      db.close();
    },
  };
}
