// Spec 3 and 5 rule 8: when the revocation check cannot be made, existing tokens of a revoked client are
// accepted until they expire; once it can be made again, they are refused from the next request.
//
// apps/catalog-api/test/revocation-fail-open.test.ts makes the client store's `get` reject ("database is
// locked") while everything else works. End to end, on the built servers, the same fault is made in the
// database itself (the SQLite file or the stack's PostgreSQL database): the clients table is moved out
// of the way (renamed by another connection, as an operator's maintenance or a failed migration would),
// so the API's revocation check fails on the real store while the catalogue tables answer; it is
// renamed back to restore the check. (Locking the whole database would fail the catalogue reads too,
// and then no request could show that the token was accepted.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report } from '../support/settings.ts';
import { type E2EStack, startE2EStack } from '../support/stack.ts';
import { openStoreConnection, type StoreConnection } from '../support/store-connection.ts';

/**
 * The short-lived token's lifetime: it has expired by the time the check is taken away, so nothing
 * depends on how long the steps before take; the long-lived token shows the acceptance.
 */
const SHORT_LIFETIME_S = 1;

let stack: E2EStack;
let db: StoreConnection;
let offline = false;

const takeClientsTableOffline = async () => {
  await db.exec('ALTER TABLE m2m_clients RENAME TO m2m_clients_offline');
  offline = true;
};
const bringClientsTableBack = async () => {
  if (!offline) return;
  await db.exec('ALTER TABLE m2m_clients_offline RENAME TO m2m_clients');
  offline = false;
};

beforeAll(async () => {
  stack = await startE2EStack({ demoProducts: 20 });
  db = await openStoreConnection(stack.location);
});
afterAll(async () => {
  if (db !== undefined) {
    await bringClientsTableBack();
    await db.close();
  }
  await stack?.stop();
});

const warnings = () =>
  stack
    .service('api')
    .output()
    .split('\n')
    .filter((line) => line.includes('revocation check unavailable')).length;

describe('revocation check unavailable (fail-open until expiry)', () => {
  it('[3 revocation check unavailable][5 rule 8][3 active→revoked] while the check cannot be made, a revoked client’s unexpired token is accepted with a logged warning and an expired one is refused (401); restored, the unexpired one gets 403 from the next request', async () => {
    const admin = await stack.adminIdToken();
    const longLived = await stack.createClient(['brands.read']);
    const shortLived = await stack.createClient(['brands.read']);
    const bystander = await stack.createClient(['brands.read']);
    // A client whose tokens live a few seconds, as a per-client lifetime allows (legacy clients have 86400 s).
    await db.run(
      'UPDATE m2m_clients SET token_lifetime_seconds = $1 WHERE client_id = $2',
      SHORT_LIFETIME_S,
      shortLived.clientId,
    );
    const tokens = {
      long: await stack.accessToken(longLived, ['brands.read']),
      short: await stack.accessToken(shortLived, ['brands.read']),
      bystander: await stack.accessToken(bystander, ['brands.read']),
    };
    const shortExpiry = JSON.parse(Buffer.from(tokens.short.split('.')[1] ?? '', 'base64url').toString()).exp;
    const status = async (token: string) => (await stack.api('/brands', { token })).status;

    expect(await status(tokens.long)).toBe(200);
    for (const { clientId } of [longLived, shortLived]) {
      expect((await stack.api(`/oauth/clients/${clientId}`, { method: 'DELETE', token: admin })).status).toBe(
        200,
      );
    }
    // Revoked: refused from the next request.
    expect(await status(tokens.long)).toBe(403);
    // Past its exp (a wait that can only be long enough: it counts from the token's own claim).
    const waitMs = shortExpiry * 1000 - Date.now() + 1_500;
    report(`waiting ${waitMs} ms for the short-lived token to expire`);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, waitMs)));

    try {
      await takeClientsTableOffline();
      const before = warnings();
      // The check cannot be made: the unexpired tokens are accepted, and that is logged.
      expect([await status(tokens.long), await status(tokens.bystander)]).toEqual([200, 200]);
      // The API writes its log line after the answer: wait for it to appear.
      while (warnings() < before + 2) await new Promise((resolve) => setTimeout(resolve, 20));
      // Until they expire: the expired token is refused (401), the check unavailable all the same.
      expect(await status(tokens.short)).toBe(401);
      expect(await status(tokens.long)).toBe(200);
    } finally {
      await bringClientsTableBack();
    }
    // Restored: the revoked client's unexpired token is refused from the very next request.
    expect(await status(tokens.long)).toBe(403);
    expect(await status(tokens.bystander)).toBe(200);
  });
});
