import { isDisabledHash } from '@catalog/identity';
import type { AdminUser, AdminUserStore } from '@catalog/store';
import type { AdminAccount, AdminAccounts } from '../ports/admin-accounts.ts';

// The store has no "disabled" field yet: a disabled user's hash carries the `!` lock mark.
const toAccount = (user: AdminUser): AdminAccount => ({
  id: user.id,
  email: user.email,
  passwordHash: user.passwordHash,
  groups: user.groups,
  disabled: isDisabledHash(user.passwordHash),
});

export class StoreAdminAccounts implements AdminAccounts {
  readonly #users: AdminUserStore;

  constructor(users: AdminUserStore) {
    this.#users = users;
  }

  async findByEmail(email: string): Promise<AdminAccount | undefined> {
    const user = await this.#users.getByEmail(email);
    return user === undefined ? undefined : toAccount(user);
  }

  async findById(id: string): Promise<AdminAccount | undefined> {
    const user = await this.#users.get(id);
    return user === undefined ? undefined : toAccount(user);
  }
}
