import type { AdminUser, AdminUserPatch, NewAdminUser } from '../model/admin-user.ts';
import type { AuditContext } from '../model/audit-event.ts';

export interface AdminUserStore {
  /** Emails are unique regardless of case; a duplicate is a ValidationError on `email`. */
  /** With `audit`, appends 'admin-user.create' in the same transaction (never the password hash). */
  create(input: NewAdminUser, audit?: AuditContext): Promise<AdminUser>;
  getByEmail(email: string): Promise<AdminUser | undefined>;
  get(id: string): Promise<AdminUser | undefined>;
  list(): Promise<AdminUser[]>;
  /** With `audit`, a patch that disables the account appends 'admin-user.disable'; other changes append nothing. */
  update(id: string, patch: AdminUserPatch, audit?: AuditContext): Promise<AdminUser>;
}
