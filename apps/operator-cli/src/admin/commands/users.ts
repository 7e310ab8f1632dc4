import { createAdminUser, disableAdminUser, listAdminUsers } from '@catalog/identity';
import { openCatalog } from '../../open-catalog.ts';
import { OPERATOR_AUDIT } from '../../operator-audit.ts';
import type { Output } from '../../output.ts';
import type { AdminEnv } from '../config/admin-env.ts';
import { readPassword } from '../read-password.ts';

export async function runUsersAdd(env: AdminEnv, input: { email: string; groups: string[] }, output: Output) {
  const password = await readPassword(env.password);
  const store = await openCatalog(env.storage);
  try {
    const user = await createAdminUser({
      users: store.adminUsers,
      email: input.email,
      password,
      groups: input.groups,
      audit: OPERATOR_AUDIT,
    });
    output.err(`created administrator ${user.email} (groups: ${user.groups.join(', ') || 'none'})`);
    output.out(user.id);
  } finally {
    await store.close();
  }
}

export async function runUsersList(env: AdminEnv, input: { json: boolean }, output: Output) {
  const store = await openCatalog(env.storage);
  try {
    const users = await listAdminUsers(store.adminUsers);
    if (input.json) return output.out(JSON.stringify(users, null, 2));
    for (const user of users) {
      output.out(
        [
          user.email,
          user.groups.join(',') || '-',
          user.disabled ? 'disabled' : 'active',
          user.createdAt,
        ].join('\t'),
      );
    }
  } finally {
    await store.close();
  }
}

export async function runUsersDisable(env: AdminEnv, input: { email: string }, output: Output) {
  const store = await openCatalog(env.storage);
  try {
    const user = await disableAdminUser({
      users: store.adminUsers,
      email: input.email,
      audit: OPERATOR_AUDIT,
    });
    output.err(
      `disabled ${user.email}: no new sign-in, and the catalog API refuses its ID tokens already issued from the next request`,
    );
  } finally {
    await store.close();
  }
}
