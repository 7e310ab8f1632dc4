import type { Migration } from '../../migration.ts';

/**
 * Every record an administrator writes carries a version (see the SQLite migration of the same
 * name): the ETag of the admin reads and what If-Match is compared with. A constant default is
 * recorded in the catalogue, not written into each row, so the migration is instant at 1M products.
 */
export const recordVersions: Migration = {
  version: 4,
  name: 'record versions',
  sql: `
ALTER TABLE products ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE brands ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE web_channels ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE m2m_clients ADD COLUMN version integer NOT NULL DEFAULT 1;
`,
};
