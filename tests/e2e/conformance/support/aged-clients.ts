// Client states no API call can produce inside a test run, made by editing the stack's records (the
// SQLite file in DATA_DIR or the stack's PostgreSQL database) as the passage of time (or a legacy
// import, or an unreachable client store) would leave them; everything the tests then observe goes
// through the servers' public routes.
import type { E2EStack } from '../../support/stack.ts';
import { openStoreConnection, type StoreConnection } from '../../support/store-connection.ts';

async function withDatabase(stack: E2EStack, run: (db: StoreConnection) => Promise<void>): Promise<void> {
  const db = await openStoreConnection(stack.location);
  try {
    await run(db);
  } finally {
    await db.close();
  }
}

/** The client's expiresAt, a minute in the past: what a client created with expiresInDays looks like after it. */
export function ageClientPastExpiry(stack: E2EStack, clientId: string): Promise<void> {
  return withDatabase(stack, (db) =>
    db.run('UPDATE m2m_clients SET expires_at = $1 WHERE client_id = $2', Date.now() - 60_000, clientId),
  );
}

/** An "older" client (spec 2.5): the 86400 s token lifetime clients created before the change keep. */
export function makeOlderClient(stack: E2EStack, clientId: string): Promise<void> {
  return withDatabase(stack, (db) =>
    db.run('UPDATE m2m_clients SET token_lifetime_seconds = 86400 WHERE client_id = $1', clientId),
  );
}

/** Moves the clients table aside (or back): the revocation check cannot read it in between. */
export function renameClientsTable(stack: E2EStack, from: string, to: string): Promise<void> {
  return withDatabase(stack, (db) => db.exec(`ALTER TABLE ${from} RENAME TO ${to}`));
}
