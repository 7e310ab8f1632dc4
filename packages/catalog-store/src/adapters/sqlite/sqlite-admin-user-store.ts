import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { adminUserCreatedEvent, adminUserUpdatedEvent } from '../../audit/admin-user-events.ts';
import { NotFoundError } from '../../errors/request-errors.ts';
import { canonicalEmail } from '../../model/admin-email.ts';
import type { AdminUser, AdminUserPatch, NewAdminUser } from '../../model/admin-user.ts';
import type { AuditContext } from '../../model/audit-event.ts';
import type { AdminUserStore } from '../../ports/admin-user-store.ts';
import { adminEmail, adminEmailTaken } from '../../write-rules/record-rules.ts';
import { toUser, type UserRow } from '../admin-user-row.ts';
import { emailRewrites, type StoredEmail } from '../canonical-emails.ts';
import { appendAuditEvent } from './records/append-audit-event.ts';
import { statement } from './statement-cache.ts';
import { inWriteTransaction } from './transaction.ts';

/**
 * Rewrites emails stored before they were canonical (../canonical-emails.ts), in one write
 * transaction. The column keeps migration 1's NOCASE collation: canonical forms hold no ASCII
 * capital, so NOCASE and exact comparison agree on them.
 */
export function canonicaliseStoredEmails(db: DatabaseSync): void {
  const rows = statement(db, 'SELECT id, email FROM admin_users').all() as unknown as StoredEmail[];
  const rewrites = emailRewrites(rows);
  if (rewrites.length === 0) return;
  inWriteTransaction(db, () => {
    for (const { id, from, to } of rewrites) {
      const holder = statement(db, 'SELECT id FROM admin_users WHERE email = ?').get(to) as
        | { id: string }
        | undefined;
      if (holder !== undefined && holder.id !== id) continue;
      statement(db, 'UPDATE admin_users SET email = ? WHERE id = ? AND email = ?').run(to, id, from);
    }
  });
}

export class SqliteAdminUserStore implements AdminUserStore {
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  #row(column: 'id' | 'email', value: string): UserRow | undefined {
    return statement(this.#db, `SELECT * FROM admin_users WHERE ${column} = ?`).get(value) as
      | UserRow
      | undefined;
  }

  async create(input: NewAdminUser, audit?: AuditContext): Promise<AdminUser> {
    return inWriteTransaction(this.#db, () => {
      const email = adminEmail(input.email);
      if (this.#row('email', email) !== undefined) throw adminEmailTaken();
      const id = randomUUID();
      const now = Date.now();
      statement(
        this.#db,
        'INSERT INTO admin_users (id, email, password_hash, groups, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(id, email, input.passwordHash, JSON.stringify(input.groups), now, now);
      const created = toUser(this.#row('id', id) as UserRow);
      if (audit !== undefined) appendAuditEvent(this.#db, adminUserCreatedEvent(audit, created));
      return created;
    });
  }

  async getByEmail(email: string): Promise<AdminUser | undefined> {
    const row = this.#row('email', canonicalEmail(email));
    return row === undefined ? undefined : toUser(row);
  }

  async get(id: string): Promise<AdminUser | undefined> {
    const row = this.#row('id', id);
    return row === undefined ? undefined : toUser(row);
  }

  async list(): Promise<AdminUser[]> {
    const rows = statement(
      this.#db,
      'SELECT * FROM admin_users ORDER BY email',
    ).all() as unknown as UserRow[];
    return rows.map(toUser);
  }

  async update(id: string, patch: AdminUserPatch, audit?: AuditContext): Promise<AdminUser> {
    return inWriteTransaction(this.#db, () => {
      const current = this.#row('id', id);
      if (current === undefined) throw new NotFoundError('Admin user', id);
      statement(
        this.#db,
        'UPDATE admin_users SET password_hash = ?, groups = ?, updated_at = ? WHERE id = ?',
      ).run(
        patch.passwordHash ?? current.password_hash,
        patch.groups === undefined ? current.groups : JSON.stringify(patch.groups),
        Date.now(),
        id,
      );
      const updated = toUser(this.#row('id', id) as UserRow);
      const event = audit && adminUserUpdatedEvent(audit, toUser(current), updated);
      if (event !== undefined) appendAuditEvent(this.#db, event);
      return updated;
    });
  }
}
