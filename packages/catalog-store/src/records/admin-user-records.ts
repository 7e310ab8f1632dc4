import { randomUUID } from 'node:crypto';
import { adminUserCreatedEvent, adminUserUpdatedEvent } from '../audit/admin-user-events.ts';
import { NotFoundError } from '../errors/request-errors.ts';
import type { AdminUser, AdminUserPatch, NewAdminUser } from '../model/admin-user.ts';
import type { AuditContext } from '../model/audit-event.ts';
import { adminEmail, adminEmailTaken } from '../write-rules/record-rules.ts';
import { toUser, type UserRow } from './admin-user-row.ts';
import { appendAuditEvent } from './audit-records.ts';
import { emailRewrites, type StoredEmail } from './canonical-emails.ts';
import type { SqlDialect } from './record-engine.ts';
import { type RecordWork, row, rows, run, transactionTime } from './record-work.ts';

/** PostgreSQL's unique index on the canonical email (its migration 3). */
const EMAIL_INDEX = 'admin_users_email';

export function* userRow(column: 'id' | 'email', value: string): RecordWork<UserRow | undefined> {
  return yield* row<UserRow>(`SELECT * FROM admin_users WHERE ${column} = ?`, value);
}

export function* createAdminUser(
  dialect: SqlDialect,
  input: NewAdminUser,
  audit?: AuditContext,
): RecordWork<AdminUser> {
  const email = adminEmail(input.email);
  if ((yield* userRow('email', email)) !== undefined) throw adminEmailTaken();
  const at = yield* transactionTime();
  let inserted: UserRow | undefined;
  try {
    inserted = yield* row<UserRow>(
      `INSERT INTO admin_users (id, email, password_hash, groups, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?) RETURNING *`,
      randomUUID(),
      email,
      input.passwordHash,
      JSON.stringify(input.groups),
      at,
      at,
    );
  } catch (error) {
    if (dialect.isUniqueViolation(error, EMAIL_INDEX)) throw adminEmailTaken();
    throw error;
  }
  const created = toUser(inserted as UserRow);
  if (audit !== undefined) yield* appendAuditEvent(adminUserCreatedEvent(audit, created));
  return created;
}

export function* updateAdminUser(
  id: string,
  patch: AdminUserPatch,
  audit?: AuditContext,
): RecordWork<AdminUser> {
  const before = yield* userRow('id', id);
  if (before === undefined) throw new NotFoundError('Admin user', id);
  const written = yield* row<UserRow>(
    'UPDATE admin_users SET password_hash = ?, groups = ?, updated_at = ? WHERE id = ? RETURNING *',
    patch.passwordHash ?? before.password_hash,
    patch.groups === undefined ? before.groups : JSON.stringify(patch.groups),
    yield* transactionTime(),
    id,
  );
  const updated = toUser(written as UserRow);
  const event = audit && adminUserUpdatedEvent(audit, toUser(before), updated);
  if (event !== undefined) yield* appendAuditEvent(event);
  return updated;
}

/**
 * Rewrites emails stored before they were canonical (canonical-emails.ts). Each row is
 * its own statement, conditional on the spelling read and on no other account holding the form, so
 * that instances opening at once rewrite it once and a form another account holds leaves the row as
 * it was. SQLite's column keeps its NOCASE collation: canonical forms hold no ASCII capital, so
 * NOCASE and exact comparison agree on them.
 */
export function* canonicaliseStoredEmails(dialect: SqlDialect): RecordWork<void> {
  const stored = yield* rows<StoredEmail>('SELECT id, email FROM admin_users');
  for (const { id, from, to } of emailRewrites(stored)) {
    try {
      yield* run(
        `UPDATE admin_users SET email = ? WHERE id = ? AND email = ?
         AND NOT EXISTS (SELECT 1 FROM admin_users WHERE email = ? AND id <> ?)`,
        to,
        id,
        from,
        to,
        id,
      );
    } catch (error) {
      if (!dialect.isUniqueViolation(error, EMAIL_INDEX)) throw error;
    }
  }
}
