import type { Migration } from '../../migration.ts';

/** The client columns an administrator writes; last_used_at and usage_count are bookkeeping of use. */
const CLIENT_COLUMNS = [
  'client_name',
  'description',
  'scopes',
  'status',
  'expires_at',
  'revoked_at',
  'revoked_by_user_id',
  'revoked_by_user_name',
  'channel_id',
  'secret_hash',
  'token_lifetime_seconds',
].join(', ');

/**
 * Channels and clients record no time of their writes (a rename or a client update stamps nothing),
 * so their entries take SQLite's clock, in epoch milliseconds, when the statement runs.
 */
const NOW = `CAST(round(unixepoch('subsec') * 1000) AS INTEGER)`;

const append = (entity: string, id: string, at: string) =>
  `INSERT INTO change_feed (entity, entity_id, changed_at) VALUES ('${entity}', ${id}, ${at});`;

/**
 * The change feed (ports/change-feed.ts). SQLite has one writer at a time, so AUTOINCREMENT hands
 * out sequences in commit order, and a rollback takes back sqlite_sequence with its rows: no gap.
 *
 * A product or brand write is one that stamps updated_at: every write does (the sync walk depends
 * on it), and an update of other columns alone is maintenance, which appends nothing. None exists
 * today: search documents, facets and the full-text index live in tables of their own. A relation
 * bump and a brand rename stamp the products whose representation they change, which get entries.
 *
 * Existing records get one entry each, so that a reader starting at 0 sees every record: channels
 * and brands first (products name them), then products by seq, then clients, each with the latest
 * time its row records. At 1M products that reads every products row once and adds 48 MB to the
 * file: about 5 s, once, holding the write lock as every migration does.
 */
export const changeFeed: Migration = {
  version: 9,
  name: 'change feed',
  sql: `
CREATE TABLE change_feed (
  sequence INTEGER PRIMARY KEY AUTOINCREMENT,
  entity TEXT NOT NULL CHECK (entity IN ('product', 'brand', 'web-channel', 'client')),
  entity_id TEXT NOT NULL,
  changed_at INTEGER NOT NULL
) STRICT;

INSERT INTO change_feed (entity, entity_id, changed_at)
  SELECT 'web-channel', slug, created_at FROM web_channels ORDER BY id;
INSERT INTO change_feed (entity, entity_id, changed_at)
  SELECT 'brand', id, updated_at FROM brands ORDER BY seq;
INSERT INTO change_feed (entity, entity_id, changed_at)
  SELECT 'product', id, updated_at FROM products ORDER BY seq;
INSERT INTO change_feed (entity, entity_id, changed_at)
  SELECT 'client', client_id, max(created_at, coalesce(revoked_at, 0)) FROM m2m_clients ORDER BY created_at, client_id;

CREATE TRIGGER products_feed_insert AFTER INSERT ON products BEGIN
  ${append('product', 'new.id', 'new.updated_at')}
END;
CREATE TRIGGER products_feed_update AFTER UPDATE OF updated_at ON products BEGIN
  ${append('product', 'new.id', 'new.updated_at')}
END;
CREATE TRIGGER brands_feed_insert AFTER INSERT ON brands BEGIN
  ${append('brand', 'new.id', 'new.updated_at')}
END;
CREATE TRIGGER brands_feed_update AFTER UPDATE OF updated_at ON brands BEGIN
  ${append('brand', 'new.id', 'new.updated_at')}
END;
CREATE TRIGGER web_channels_feed_insert AFTER INSERT ON web_channels BEGIN
  ${append('web-channel', 'new.slug', NOW)}
END;
CREATE TRIGGER web_channels_feed_update AFTER UPDATE OF slug, name ON web_channels BEGIN
  ${append('web-channel', 'new.slug', NOW)}
END;
CREATE TRIGGER m2m_clients_feed_insert AFTER INSERT ON m2m_clients BEGIN
  ${append('client', 'new.client_id', NOW)}
END;
CREATE TRIGGER m2m_clients_feed_update AFTER UPDATE OF ${CLIENT_COLUMNS} ON m2m_clients BEGIN
  ${append('client', 'new.client_id', NOW)}
END;
`,
};
