import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { adminUserCreatedEvent, adminUserUpdatedEvent } from '../../audit/admin-user-events.ts';
import { NotFoundError } from '../../errors/request-errors.ts';
import type { AdminUser, AdminUserPatch, NewAdminUser } from '../../model/admin-user.ts';
import type { AuditContext } from '../../model/audit-event.ts';
import type { AdminUserStore } from '../../ports/admin-user-store.ts';
import { adminEmail, adminEmailTaken } from '../../write-rules/record-rules.ts';
import { toUser, type UserRow } from '../admin-user-row.ts';
import { appendAuditEvent } from './sqlite-audit-log.ts';
import { statement } from './statement-cache.ts';
import { inWriteTransaction } from './transaction.ts';

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
    const row = this.#row('email', email.trim());
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
