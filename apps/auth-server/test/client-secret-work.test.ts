import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pepperedSecretVerifier } from '../src/oidc/client-secret-check.ts';
import { newClientId, startTestServer, type TestServer } from './support/test-server.ts';
import { basic, postToken } from './support/token-requests.ts';

// Every client-secret check the real server makes, counted (the pepper's HMAC and the
// constant-time comparison run inside verify).
let checks = 0;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    secretVerifier: (pepper) => {
      const real = pepperedSecretVerifier(pepper);
      return {
        verify(presented, storedHash) {
          checks += 1;
          return real.verify(presented, storedHash);
        },
      };
    },
  });
});
afterAll(async () => {
  await server?.stop({ removeData: true });
});

const SCOPE = 'crm-api/products.read';

/** The number of secret checks one token request caused, and its answer. */
async function checksFor(form: Record<string, string>, headers: Record<string, string> = {}) {
  const before = checks;
  const reply = await postToken(server, { grant_type: 'client_credentials', scope: SCOPE, ...form }, headers);
  return { checks: checks - before, status: reply.status, error: reply.json.error };
}

describe('client authentication does the same secret work whatever the client state (timing)', () => {
  it('checks the presented secret exactly once for an active, an unknown, a revoked and an expired client', async () => {
    const active = await server.createClient();
    const revoked = await server.createClient();
    await server.store.clients.revoke(revoked.clientId, { userId: 'admin', userName: 'admin' });
    const expired = await server.createClient({ expiresAt: '2000-01-01T00:00:00.000Z' });
    const wrong = 'x'.repeat(43);

    const right = await checksFor({ client_id: active.clientId, client_secret: active.clientSecret });
    expect(right).toEqual({ checks: 1, status: 200, error: undefined });
    for (const clientId of [active.clientId, newClientId(), revoked.clientId, expired.clientId]) {
      const posted = await checksFor({ client_id: clientId, client_secret: wrong });
      expect(posted, clientId).toEqual({ checks: 1, status: 400, error: 'invalid_client' });
      const viaBasic = await checksFor({}, { Authorization: basic(clientId, wrong) });
      expect(viaBasic, clientId).toEqual({ checks: 1, status: 400, error: 'invalid_client' });
    }
  });

  it('checks nothing when no secret is presented at all', async () => {
    expect(await checksFor({ client_id: newClientId() })).toEqual({
      checks: 0,
      status: 400,
      error: 'invalid_client',
    });
  });
});
