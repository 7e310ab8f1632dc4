export interface AdminUser {
  id: string;
  email: string;
  /**
   * scrypt hash in the auth server's own encoding, opaque to everyone else but for one mark: a
   * leading `!` disables the account without losing its hash, as in /etc/shadow.
   */
  passwordHash: string;
  groups: string[];
  createdAt: string;
  updatedAt: string;
}

export interface NewAdminUser {
  email: string;
  passwordHash: string;
  groups: string[];
}

export interface AdminUserPatch {
  passwordHash?: string;
  groups?: string[];
}

/** Prefixed to the stored password hash of a disabled administrator. */
export const DISABLED_PASSWORD_MARK = '!';

/** Whether the account was disabled (`pnpm admin users disable`): it may neither sign in nor act. */
export const isAdminUserDisabled = (user: Pick<AdminUser, 'passwordHash'>): boolean =>
  user.passwordHash.startsWith(DISABLED_PASSWORD_MARK);
