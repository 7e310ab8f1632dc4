import type { Migration } from '../../migration.ts';

/**
 * The records of a PostgreSQL deployment, column for column those of the embedded engine (times in
 * epoch milliseconds, `seq` the insertion order that breaks ties), so that a record reads the same
 * whichever engine holds it and `catalog copy` moves rows without translating them. Search
 * structures are not here: search is a separate port (see the store README).
 *
 * `write_clock` is the one row every write transaction locks first (transaction.ts): writers take
 * turns from that statement to their commit, which is what keeps updatedAt from ever going back
 * and numbers the change feed in commit order without gaps.
 */
export const initialSchema: Migration = {
  version: 1,
  name: 'initial schema',
  sql: `
CREATE TABLE write_clock (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  last_ts bigint NOT NULL,
  last_sequence bigint NOT NULL,
  -- Names this catalogue's feed: a replica built from another database (or a restored one) is rebuilt.
  feed_origin uuid NOT NULL DEFAULT gen_random_uuid()
);
INSERT INTO write_clock (last_ts, last_sequence) VALUES (0, 0);

CREATE TABLE web_channels (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  name text NOT NULL,
  created_at bigint NOT NULL
);

CREATE TABLE brands (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text NOT NULL UNIQUE,
  name text NOT NULL UNIQUE,
  slug text NOT NULL UNIQUE,
  archived boolean NOT NULL DEFAULT false,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);

CREATE TABLE products (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text NOT NULL UNIQUE,
  product_code text NOT NULL,
  product_code_key text NOT NULL,
  erp_code text NOT NULL DEFAULT '',
  erp_code_key text NOT NULL DEFAULT '',
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  brand_seq bigint REFERENCES brands (seq),
  brand_name text NOT NULL DEFAULT '',
  brand_slug text NOT NULL DEFAULT '',
  range text NOT NULL DEFAULT '',
  category text NOT NULL DEFAULT '',
  department text NOT NULL DEFAULT '',
  sub_department text NOT NULL DEFAULT '',
  stock_type text NOT NULL DEFAULT '',
  catalogue text NOT NULL DEFAULT '',
  notes text NOT NULL DEFAULT '',
  colour text NOT NULL DEFAULT '',
  barcode text NOT NULL DEFAULT '',
  weight_unit text NOT NULL DEFAULT '',
  alt_supplier_code text NOT NULL DEFAULT '',
  alt_supplier_code2 text NOT NULL DEFAULT '',
  web_hierarchy text NOT NULL DEFAULT '',
  type text NOT NULL DEFAULT '',
  sub_type text NOT NULL DEFAULT '',
  sub_sub_type text NOT NULL DEFAULT '',
  retail_range text NOT NULL DEFAULT '',
  internal_note text NOT NULL DEFAULT '',
  price double precision,
  retail_price double precision,
  supplier_cost double precision,
  cost_price double precision,
  margin_percent double precision,
  length double precision NOT NULL DEFAULT 0,
  height double precision NOT NULL DEFAULT 0,
  width double precision NOT NULL DEFAULT 0,
  weight double precision NOT NULL DEFAULT 0,
  image_url text,
  images text NOT NULL DEFAULT '[]',
  documents text NOT NULL DEFAULT '[]',
  spares text NOT NULL DEFAULT '[]',
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'discontinued')),
  archived boolean NOT NULL DEFAULT false,
  display_on_web boolean,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX products_product_code_key ON products (product_code_key);
CREATE INDEX products_erp_code_key ON products (erp_code_key);
CREATE INDEX products_barcode ON products (barcode);
CREATE INDEX products_brand_seq ON products (brand_seq);
CREATE INDEX products_status ON products (status, seq);
CREATE INDEX products_updated_at ON products (updated_at, seq);

-- Only forward relations are stored; "used by" entries are derived from related_id.
CREATE TABLE product_relations (
  product_seq bigint NOT NULL REFERENCES products (seq) ON DELETE CASCADE,
  position integer NOT NULL,
  related_id text NOT NULL,
  relation_type text NOT NULL CHECK (relation_type IN ('required', 'optional', 'substitute')),
  qty double precision NOT NULL,
  note text,
  PRIMARY KEY (product_seq, position)
);
CREATE INDEX product_relations_related ON product_relations (related_id);

CREATE TABLE product_channel_visibility (
  channel_id integer NOT NULL REFERENCES web_channels (id) ON DELETE CASCADE,
  product_seq bigint NOT NULL REFERENCES products (seq) ON DELETE CASCADE,
  visible boolean NOT NULL,
  PRIMARY KEY (channel_id, product_seq)
);
CREATE INDEX product_channel_visibility_product ON product_channel_visibility (product_seq);

CREATE TABLE m2m_clients (
  client_id text PRIMARY KEY,
  client_name text NOT NULL,
  description text,
  scopes text NOT NULL,
  status text NOT NULL CHECK (status IN ('active', 'revoked')),
  created_at bigint NOT NULL,
  created_by_user_id text NOT NULL,
  created_by_user_name text NOT NULL,
  expires_at bigint,
  last_used_at bigint,
  usage_count bigint NOT NULL DEFAULT 0,
  revoked_at bigint,
  revoked_by_user_id text,
  revoked_by_user_name text,
  channel_id integer REFERENCES web_channels (id),
  secret_hash text NOT NULL,
  token_lifetime_seconds integer NOT NULL CHECK (token_lifetime_seconds > 0)
);
CREATE INDEX m2m_clients_status ON m2m_clients (status, created_at);

CREATE TABLE admin_users (
  id text PRIMARY KEY,
  email text NOT NULL,
  password_hash text NOT NULL,
  groups text NOT NULL DEFAULT '[]',
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE UNIQUE INDEX admin_users_email ON admin_users (lower(email));

-- Append-only (triggers below). Ids come from an identity, handed out while the writer holds the
-- write clock, so they grow in commit order like the embedded engine's AUTOINCREMENT.
CREATE TABLE audit_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  occurred_at bigint NOT NULL,
  actor_kind text NOT NULL,
  actor_id text,
  actor_email text,
  action text NOT NULL,
  target_type text NOT NULL,
  target_id text,
  changes text,
  details text,
  source_ip text,
  request_id text
);
CREATE INDEX audit_events_actor_id ON audit_events (actor_id, id);
CREATE INDEX audit_events_actor_email ON audit_events (lower(actor_email), id);
CREATE INDEX audit_events_action ON audit_events (action, id);
CREATE INDEX audit_events_target_type ON audit_events (target_type, id);
CREATE INDEX audit_events_target ON audit_events (target_type, target_id, id);
CREATE INDEX audit_events_time ON audit_events (occurred_at, id);
CREATE FUNCTION audit_events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: an event cannot be changed or deleted';
END $$;
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change();

-- The change feed (store README, "Change feed"): one entry per committed write of a record, its
-- sequence taken from write_clock under that row's lock, so entries are numbered in commit order
-- and a rolled-back write leaves neither an entry nor a gap.
CREATE TABLE change_feed (
  sequence bigint PRIMARY KEY,
  entity text NOT NULL CHECK (entity IN ('product', 'brand', 'web-channel', 'client')),
  entity_id text NOT NULL,
  changed_at bigint NOT NULL
);

CREATE FUNCTION append_changes(entity text, ids text[], at bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  first bigint;
BEGIN
  IF cardinality(ids) = 0 THEN RETURN; END IF;
  UPDATE write_clock SET last_sequence = last_sequence + cardinality(ids)
    RETURNING last_sequence - cardinality(ids) INTO first;
  INSERT INTO change_feed (sequence, entity, entity_id, changed_at)
    SELECT first + position, entity, id, at FROM unnest(ids) WITH ORDINALITY AS t (id, position);
END $$;

CREATE FUNCTION product_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM append_changes('product', ARRAY(SELECT id FROM changed ORDER BY seq),
    (SELECT coalesce(max(updated_at), 0) FROM changed));
  RETURN NULL;
END $$;
CREATE TRIGGER products_feed_insert AFTER INSERT ON products REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION product_changes();
CREATE TRIGGER products_feed_update AFTER UPDATE ON products REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION product_changes();

CREATE FUNCTION brand_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM append_changes('brand', ARRAY(SELECT id FROM changed ORDER BY seq),
    (SELECT coalesce(max(updated_at), 0) FROM changed));
  RETURN NULL;
END $$;
CREATE TRIGGER brands_feed_insert AFTER INSERT ON brands REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION brand_changes();
CREATE TRIGGER brands_feed_update AFTER UPDATE ON brands REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION brand_changes();

CREATE FUNCTION web_channel_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM append_changes('web-channel', ARRAY(SELECT slug FROM changed ORDER BY id),
    (SELECT last_ts FROM write_clock));
  RETURN NULL;
END $$;
CREATE TRIGGER web_channels_feed_insert AFTER INSERT ON web_channels REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION web_channel_changes();
CREATE TRIGGER web_channels_feed_update AFTER UPDATE ON web_channels REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION web_channel_changes();

-- Per row and only for the columns an administrator changes: lastUsedAt and usageCount are
-- bookkeeping of every token exchange and request, not writes of the client.
CREATE FUNCTION client_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM append_changes('client', ARRAY[NEW.client_id], (SELECT last_ts FROM write_clock));
  RETURN NULL;
END $$;
CREATE TRIGGER m2m_clients_feed_insert AFTER INSERT ON m2m_clients
  FOR EACH ROW EXECUTE FUNCTION client_change();
CREATE TRIGGER m2m_clients_feed_update AFTER UPDATE OF client_name, description, scopes, status,
  expires_at, revoked_at, revoked_by_user_id, revoked_by_user_name, channel_id, secret_hash,
  token_lifetime_seconds ON m2m_clients
  FOR EACH ROW EXECUTE FUNCTION client_change();
`,
};
