import type { FindAccount } from 'oidc-provider';
import type { AdminAccounts } from '../ports/admin-accounts.ts';

/**
 * The administrator behind a session or a code. A disabled or deleted user has no account, which
 * ends the session. The claims go into the ID token: `groups` is what the catalog API checks.
 */
export function findAccount(accounts: AdminAccounts): FindAccount {
  return async (_ctx, sub) => {
    const account = await accounts.findById(sub);
    if (account === undefined || account.disabled) return undefined;
    return {
      accountId: account.id,
      claims: () => ({ sub: account.id, email: account.email, groups: [...account.groups] }),
    };
  };
}
