/** An administrator as the login page and the ID token see it. */
export interface AdminAccount {
  readonly id: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly groups: readonly string[];
  readonly disabled: boolean;
}

export interface AdminAccounts {
  findByEmail(email: string): Promise<AdminAccount | undefined>;
  findById(id: string): Promise<AdminAccount | undefined>;
}
