import type { Migration } from '../../migration.ts';

/**
 * Every record an administrator writes carries a version: 1 when created, one more with each write
 * that changes what the record reads as (a product renamed through its brand or re-coded through a
 * relation included). The API's ETag is derived from it and a conditional write (If-Match) compares
 * it inside the write transaction. A constant default makes the column free to add at 1M products:
 * SQLite records it in the schema, not in each row.
 */
export const recordVersions: Migration = {
  version: 10,
  name: 'record versions',
  sql: `
ALTER TABLE products ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE brands ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE web_channels ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE m2m_clients ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
`,
};
