import { canonicalEmail } from '../model/admin-email.ts';
import type { AdminUser, AdminUserPatch, NewAdminUser } from '../model/admin-user.ts';
import type { AuditContext } from '../model/audit-event.ts';
import type { AdminUserStore } from '../ports/admin-user-store.ts';
import { createAdminUser, updateAdminUser, userRow } from './admin-user-records.ts';
import { toUser, type UserRow } from './admin-user-row.ts';
import type { RecordEngine } from './record-engine.ts';
import { rows } from './record-work.ts';

/** The console's administrators on either record engine. */
export class RecordAdminUserStore implements AdminUserStore {
  readonly #engine: RecordEngine;

  constructor(engine: RecordEngine) {
    this.#engine = engine;
  }

  create(input: NewAdminUser, audit?: AuditContext): Promise<AdminUser> {
    return this.#engine.write(() => createAdminUser(this.#engine.dialect, input, audit));
  }

  async getByEmail(email: string): Promise<AdminUser | undefined> {
    const found = await this.#engine.direct(() => userRow('email', canonicalEmail(email)));
    return found === undefined ? undefined : toUser(found);
  }

  async get(id: string): Promise<AdminUser | undefined> {
    const found = await this.#engine.direct(() => userRow('id', id));
    return found === undefined ? undefined : toUser(found);
  }

  async list(): Promise<AdminUser[]> {
    // Byte order on both: SQLite's NOCASE column sorts canonical (capital-free) emails so.
    const { byteOrder } = this.#engine.dialect;
    const found = await this.#engine.direct(() =>
      rows<UserRow>(`SELECT * FROM admin_users ORDER BY email${byteOrder}`),
    );
    return found.map(toUser);
  }

  update(id: string, patch: AdminUserPatch, audit?: AuditContext): Promise<AdminUser> {
    return this.#engine.write(() => updateAdminUser(id, patch, audit));
  }
}
