import type { AdminUserStore, AuditContext } from '@catalog/store';
import { AdminUserNotFoundError, WeakPasswordError } from '../errors/admin-errors.ts';
import { disabledHash, hashPassword, isDisabledHash } from './password-hash.ts';

export const MIN_PASSWORD_LENGTH = 12;

/** An administrator as `pnpm admin users list` shows it: never the hash. */
export interface AdminUserSummary {
  readonly id: string;
  readonly email: string;
  readonly groups: readonly string[];
  readonly disabled: boolean;
  readonly createdAt: string;
}

const summary = (user: {
  id: string;
  email: string;
  groups: string[];
  passwordHash: string;
  createdAt: string;
}): AdminUserSummary => ({
  id: user.id,
  email: user.email,
  groups: user.groups,
  disabled: isDisabledHash(user.passwordHash),
  createdAt: user.createdAt,
});

/**
 * Creates an administrator with a scrypt-hashed password (decisions: Identity). With `audit`, the
 * store appends 'admin-user.create' in the same transaction (email and groups, never the hash).
 */
export async function createAdminUser(input: {
  readonly users: AdminUserStore;
  readonly email: string;
  readonly password: string;
  readonly groups: readonly string[];
  readonly audit?: AuditContext;
}): Promise<AdminUserSummary> {
  if ([...input.password].length < MIN_PASSWORD_LENGTH) {
    throw new WeakPasswordError(`the password must be at least ${MIN_PASSWORD_LENGTH} characters long`);
  }
  const user = await input.users.create(
    {
      email: input.email,
      passwordHash: await hashPassword(input.password),
      groups: [...new Set(input.groups)],
    },
    input.audit,
  );
  return summary(user);
}

export async function listAdminUsers(users: AdminUserStore): Promise<AdminUserSummary[]> {
  return (await users.list()).map(summary);
}

/**
 * Disables an administrator: no new sign-in, and the account disappears from existing sessions.
 * ID tokens already issued stay valid until they expire (at most an hour). With `audit`, the store
 * appends 'admin-user.disable' in the same transaction (none when the account was already disabled).
 */
export async function disableAdminUser(input: {
  readonly users: AdminUserStore;
  readonly email: string;
  readonly audit?: AuditContext;
}): Promise<AdminUserSummary> {
  const user = await input.users.getByEmail(input.email);
  if (user === undefined) throw new AdminUserNotFoundError(input.email);
  return summary(
    await input.users.update(user.id, { passwordHash: disabledHash(user.passwordHash) }, input.audit),
  );
}
