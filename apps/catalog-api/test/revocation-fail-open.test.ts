import { generateClientSecret, hashClientSecret, loadClientSecretPepper } from '@catalog/server-runtime';
import { rawRequest, requestAccessToken } from '@catalog/server-runtime/testing';
import type { ClientStore } from '@catalog/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiOverStore, startApiOverStore } from './support/api-over-store.ts';

// The client store behind the revocation check, with a switch that makes it fail as an unreachable
// database would. Everything else (tokens, TLS, SQLite, the app) is real.
function switchableClients(real: ClientStore) {
  const state = { available: true };
  const clients: ClientStore = {
    ...real,
    get: (clientId) =>
      state.available ? real.get(clientId) : Promise.reject(new Error('database is locked')),
    recordUsage: (clientId, calls) => real.recordUsage(clientId, calls),
  };
  return { clients, state };
}

let api: ApiOverStore;
let state: { available: boolean };

beforeAll(async () => {
  api = await startApiOverStore({
    dataDirPrefix: 'fail-open-',
    wrap: (store) => {
      const switchable = switchableClients(store.clients);
      state = switchable.state;
      return { clients: switchable.clients };
    },
  });
});
afterAll(async () => {
  await api?.stop();
});

describe('revocation check unavailable (spec 3, 5.8)', () => {
  it('accepts a revoked client’s unexpired token while the check cannot be made, and refuses it again once restored', async () => {
    const { store, auth, ca, base } = api;
    const pepper = await loadClientSecretPepper({ dataDir: api.dataDir });
    const secret = generateClientSecret();
    const clientId = 'FailOpenClient0000000000AB';
    await store.clients.create({
      clientId,
      clientName: 'Fail open',
      scopes: ['brands.read'],
      createdBy: { userId: 't', userName: 'test' },
      expiresAt: null,
      secretHash: hashClientSecret(secret, pepper),
      tokenLifetimeSeconds: 3600,
    });
    const { token } = await requestAccessToken({
      authUrl: auth.url,
      ca,
      clientId,
      clientSecret: secret,
      scopes: ['brands.read'],
    });
    const call = () => rawRequest(`${base}/brands`, { ca, headers: { Authorization: `Bearer ${token}` } });
    expect((await call()).status).toBe(200);

    await store.clients.revoke(clientId, { userId: 't', userName: 'test' });
    expect((await call()).status).toBe(403);

    state.available = false;
    expect((await call()).status).toBe(200);

    state.available = true;
    expect((await call()).status).toBe(403);
  });
});
