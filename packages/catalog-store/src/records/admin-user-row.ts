import { toIso } from '../adapters/timestamps.ts';
import type { AdminUser } from '../model/admin-user.ts';

// An admin_users row, the same columns on both engines, and the user it holds.

export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  groups: string;
  created_at: number;
  updated_at: number;
}

export function toUser(row: UserRow): AdminUser {
  return {
    id: row.id,
    email: row.email,
    passwordHash: row.password_hash,
    groups: JSON.parse(row.groups) as string[],
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}
