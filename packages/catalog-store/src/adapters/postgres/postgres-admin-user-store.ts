import { randomUUID } from 'node:crypto';
import type pg from 'pg';
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
import { inWriteTransaction } from './transaction.ts';

const USER_COLUMNS = 'id, email, password_hash, groups, created_at, updated_at';
const UNIQUE_VIOLATION = '23505';
/** Migration 3's unique index on the canonical email (model/admin-email.ts). */
const EMAIL_INDEX = 'admin_users_email';

function isDuplicateEmail(error: unknown): boolean {
  const { code, constraint } = error as { code?: string; constraint?: string };
  return code === UNIQUE_VIOLATION && constraint === EMAIL_INDEX;
}

async function userById(db: pg.Pool | pg.PoolClient, id: string): Promise<UserRow | undefined> {
  const result = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM admin_users WHERE id = $1`, [id]);
  return result.rows[0];
}

async function insertUser(client: pg.PoolClient, input: NewAdminUser, ts: number): Promise<UserRow> {
  const email = adminEmail(input.email);
  try {
    const result = await client.query<UserRow>(
      `INSERT INTO admin_users (id, email, password_hash, groups, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5) RETURNING ${USER_COLUMNS}`,
      [randomUUID(), email, input.passwordHash, JSON.stringify(input.groups), ts],
    );
    return result.rows[0] as UserRow;
  } catch (error) {
    if (isDuplicateEmail(error)) throw adminEmailTaken();
    throw error;
  }
}

/**
 * Rewrites emails stored before they were canonical (../canonical-emails.ts). Each row is its own
 * statement, conditional on the spelling read, so instances opening at once rewrite it once, and a
 * form another account holds leaves the row as it was.
 */
export async function canonicaliseStoredEmails(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<StoredEmail>('SELECT id, email FROM admin_users');
  for (const { id, from, to } of emailRewrites(rows)) {
    try {
      await pool.query('UPDATE admin_users SET email = $1 WHERE id = $2 AND email = $3', [to, id, from]);
    } catch (error) {
      if (!isDuplicateEmail(error)) throw error;
    }
  }
}

export class PostgresAdminUserStore implements AdminUserStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async create(input: NewAdminUser, audit?: AuditContext): Promise<AdminUser> {
    return inWriteTransaction(this.#pool, async (client, ts) => {
      const created = toUser(await insertUser(client, input, ts));
      if (audit !== undefined) await appendAuditEvent(client, adminUserCreatedEvent(audit, created), ts);
      return created;
    });
  }

  async getByEmail(email: string): Promise<AdminUser | undefined> {
    const result = await this.#pool.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM admin_users WHERE email = $1`,
      [canonicalEmail(email)],
    );
    const row = result.rows[0];
    return row === undefined ? undefined : toUser(row);
  }

  async get(id: string): Promise<AdminUser | undefined> {
    const row = await userById(this.#pool, id);
    return row === undefined ? undefined : toUser(row);
  }

  async list(): Promise<AdminUser[]> {
    // Byte order, as the embedded engine's NOCASE column sorts canonical (capital-free) emails.
    const result = await this.#pool.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM admin_users ORDER BY email COLLATE "C"`,
    );
    return result.rows.map(toUser);
  }

  async update(id: string, patch: AdminUserPatch, audit?: AuditContext): Promise<AdminUser> {
    return inWriteTransaction(this.#pool, async (client, ts) => {
      const before = await userById(client, id);
      if (before === undefined) throw new NotFoundError('Admin user', id);
      const result = await client.query<UserRow>(
        `UPDATE admin_users SET password_hash = $1, groups = $2, updated_at = $3 WHERE id = $4
         RETURNING ${USER_COLUMNS}`,
        [
          patch.passwordHash ?? before.password_hash,
          patch.groups === undefined ? before.groups : JSON.stringify(patch.groups),
          ts,
          id,
        ],
      );
      const updated = toUser(result.rows[0] as UserRow);
      const event = audit && adminUserUpdatedEvent(audit, toUser(before), updated);
      if (event !== undefined) await appendAuditEvent(client, event, ts);
      return updated;
    });
  }
}
