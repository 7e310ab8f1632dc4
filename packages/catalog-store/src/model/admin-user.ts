export interface AdminUser {
  id: string;
  email: string;
  /** scrypt hash in the auth server's own encoding; the store treats it as opaque. */
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
