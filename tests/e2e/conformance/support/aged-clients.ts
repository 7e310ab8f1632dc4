// Client states no API call can produce inside a test run, made by editing the shared database under
// DATA_DIR as the passage of time (or a legacy import, or an unreachable client store) would leave it;
// everything the tests then observe goes through the servers' public routes.
import { DatabaseSync } from 'node:sqlite';
import { catalogDatabasePath } from '@catalog/store';
import type { E2EStack } from '../../support/stack.ts';

function withDatabase<T>(stack: E2EStack, run: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(catalogDatabasePath(stack.dataDir));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    return run(db);
  } finally {
    db.close();
  }
}

/** The client's expiresAt, a minute in the past: what a client created with expiresInDays looks like after it. */
export function ageClientPastExpiry(stack: E2EStack, clientId: string): void {
  withDatabase(stack, (db) =>
    db
      .prepare('UPDATE m2m_clients SET expires_at = ? WHERE client_id = ?')
      .run(Date.now() - 60_000, clientId),
  );
}

/** An "older" client (spec 2.5): the 86400 s token lifetime clients created before the change keep. */
export function makeOlderClient(stack: E2EStack, clientId: string): void {
  withDatabase(stack, (db) =>
    db.prepare('UPDATE m2m_clients SET token_lifetime_seconds = 86400 WHERE client_id = ?').run(clientId),
  );
}

/** Moves the clients table aside (or back): the revocation check cannot read it in between. */
export function renameClientsTable(stack: E2EStack, from: string, to: string): void {
  withDatabase(stack, (db) => db.exec(`ALTER TABLE ${from} RENAME TO ${to}`));
}
