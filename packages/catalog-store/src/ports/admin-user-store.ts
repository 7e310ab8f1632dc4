import type { AdminUser, AdminUserPatch, NewAdminUser } from '../model/admin-user.ts';
import type { AuditContext } from '../model/audit-event.ts';

export interface AdminUserStore {
  /**
   * The email is stored in its canonical form (canonicalEmail), and unique in it; a duplicate is a
   * ValidationError on `email`. Lookups canonicalise the email they are given and compare exactly.
   */
  /** With `audit`, appends 'admin-user.create' in the same transaction (never the password hash). */
  create(input: NewAdminUser, audit?: AuditContext): Promise<AdminUser>;
  getByEmail(email: string): Promise<AdminUser | undefined>;
  get(id: string): Promise<AdminUser | undefined>;
  list(): Promise<AdminUser[]>;
  /** With `audit`, a patch that disables the account appends 'admin-user.disable'; other changes append nothing. */
  update(id: string, patch: AdminUserPatch, audit?: AuditContext): Promise<AdminUser>;
}
