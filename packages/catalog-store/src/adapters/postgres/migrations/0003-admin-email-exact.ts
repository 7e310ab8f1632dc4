import type { Migration } from '../../migration.ts';

/**
 * Emails are unique and looked up in their canonical form (model/admin-email.ts), compared exactly:
 * lower() followed the database's locale, which lowers some letters as JavaScript does not (İ to
 * i), so an email could find an account under a key its lock-out did not count. The rows written
 * before are rewritten to that form when the store opens (canonicaliseStoredEmails), which SQL
 * cannot compute.
 */
export const adminEmailExact: Migration = {
  version: 3,
  name: 'admin email exact',
  sql: `
DROP INDEX admin_users_email;
CREATE UNIQUE INDEX admin_users_email ON admin_users (email);
`,
};
