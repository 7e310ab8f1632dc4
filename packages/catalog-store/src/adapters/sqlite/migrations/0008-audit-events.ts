import type { Migration } from '../../migration.ts';

/**
 * The audit trail (issue 18). `id` is AUTOINCREMENT so that an id is never handed out twice, even
 * after the newest row is gone (it cannot go: see the triggers): a reader's `before` cursor always
 * means the same place in the trail. Times are epoch milliseconds like every other table.
 *
 * `actor_id` holds the admin's user id, or `operator-cli`; `actor_email` compares without case, as
 * emails do at sign-in. Each filter of GET /audit-events has an index ending in `id`, so a filtered
 * page is a walk down one index in the order it is returned (newest first, keyset on id). The
 * store never lets `occurred_at` go back as `id` grows, so the time index turns a time bound into
 * an id bound (src/records/audit-records.ts).
 *
 * The triggers make the trail append-only in the engine itself: no code path, however written, can
 * rewrite or remove history through this connection or any other.
 */
export const auditEvents: Migration = {
  version: 8,
  name: 'audit events',
  sql: `
CREATE TABLE audit_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  occurred_at INTEGER NOT NULL,
  actor_kind TEXT NOT NULL,
  actor_id TEXT,
  actor_email TEXT COLLATE NOCASE,
  action TEXT NOT NULL,
  target_type TEXT NOT NULL,
  target_id TEXT,
  changes TEXT,
  details TEXT,
  source_ip TEXT,
  request_id TEXT
) STRICT;
CREATE INDEX audit_events_actor_id ON audit_events (actor_id, id);
CREATE INDEX audit_events_actor_email ON audit_events (actor_email, id);
CREATE INDEX audit_events_action ON audit_events (action, id);
CREATE INDEX audit_events_target_type ON audit_events (target_type, id);
CREATE INDEX audit_events_target ON audit_events (target_type, target_id, id);
CREATE INDEX audit_events_time ON audit_events (occurred_at, id);
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
BEGIN
  SELECT RAISE(ABORT, 'audit_events is append-only: an event cannot be changed');
END;
CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
BEGIN
  SELECT RAISE(ABORT, 'audit_events is append-only: an event cannot be deleted');
END;
`,
};
