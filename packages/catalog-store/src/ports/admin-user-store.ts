import type { AdminUser, AdminUserPatch, NewAdminUser } from '../model/admin-user.ts';

export interface AdminUserStore {
  /** Emails are unique regardless of case; a duplicate is a ValidationError on `email`. */
  create(input: NewAdminUser): Promise<AdminUser>;
  getByEmail(email: string): Promise<AdminUser | undefined>;
  get(id: string): Promise<AdminUser | undefined>;
  list(): Promise<AdminUser[]>;
  update(id: string, patch: AdminUserPatch): Promise<AdminUser>;
}
