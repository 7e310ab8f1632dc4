import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateResponse } from '@catalog/contracts';
import { openRecords } from '@catalog/engines';
import { generateClientSecret, hashClientSecret, loadClientSecretPepper } from '@catalog/server-runtime';
import {
  rawRequest,
  requestAccessToken,
  type ServerPair,
  spawnServerPair,
} from '@catalog/server-runtime/testing';
import { ensureDemoCatalogue, type ReplicaBuildProgress } from '@catalog/store';
import { createTestDatabase, type TestDatabase } from '@catalog/store/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { generateClientId } from '../src/domain/clients/generate-client-id.ts';

const apiEntry = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const authEntry = fileURLToPath(new URL('../../auth-server/src/main.ts', import.meta.url));
const PRODUCTS = 3000;

interface ReadyBody {
  status: string;
  checks: Record<string, string>;
  searchReplica?: ReplicaBuildProgress;
}

/** The API's log lines about its search replica, parsed. */
function replicaLines(output: string): ReplicaBuildProgress[] {
  return output
    .split('\n')
    .filter((line) => line.includes('"searchReplica"'))
    .map((line) => (JSON.parse(line) as { searchReplica: ReplicaBuildProgress }).searchReplica);
}

// A first start on PostgreSQL builds this instance's search replica from a snapshot of the whole
// catalogue (some 40 s at 1M products): the API listens meanwhile, says so on /ready and in its log.
describe('the search replica a first start on PostgreSQL builds', () => {
  let database: TestDatabase;
  let dataDir: string;
  let pair: ServerPair | undefined;
  let lock: pg.Client | undefined;

  beforeAll(async () => {
    database = await createTestDatabase(inject('testSettings').databaseUrl, 'api_replica_build');
    dataDir = await mkdtemp(join(tmpdir(), 'api-replica-build-'));
    const records = await openRecords({ engine: 'postgres', url: database.url, dataDir });
    try {
      await ensureDemoCatalogue(records, { products: PRODUCTS });
    } finally {
      await records.close();
    }
    // The build's snapshot reads the products table: held here, the build waits at its start for as
    // long as the test needs to observe it, whatever the machine's speed.
    lock = new pg.Client({ connectionString: database.url });
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE products IN ACCESS EXCLUSIVE MODE');
    pair = await spawnServerPair({
      dataDir,
      authEntry,
      apiEntry,
      authEnv: { DATABASE_URL: database.url },
      apiEnv: { DATABASE_URL: database.url, DEMO_CATALOGUE_PRODUCTS: '0' },
    });
  });
  afterAll(async () => {
    await lock?.end().catch(() => undefined);
    await pair?.api.stop();
    await pair?.auth.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A token of a client made in the database, as an operator's `pnpm admin` would. */
  const aToken = async () => {
    const secret = generateClientSecret();
    const clientId = generateClientId();
    const records = await openRecords({ engine: 'postgres', url: database.url, dataDir });
    try {
      await records.clients.create({
        clientId,
        clientName: 'replica build',
        scopes: ['products.read'],
        createdBy: { userId: 'test', userName: 'test suite' },
        expiresAt: null,
        secretHash: hashClientSecret(secret, await loadClientSecretPepper({ dataDir })),
        tokenLifetimeSeconds: 3600,
      });
    } finally {
      await records.close();
    }
    const issued = await requestAccessToken({
      authUrl: pair?.auth.url as string,
      ca: pair?.ca as string,
      clientId,
      clientSecret: secret,
      scopes: ['products.read'],
    });
    return issued.token as string;
  };

  const ready = async () => {
    const reply = await rawRequest(`${pair?.api.url}/ready`, { ca: pair?.ca as string });
    return { status: reply.status, body: JSON.parse(reply.body) as ReadyBody };
  };

  it('the API listens while it builds: /ready answers 503 naming the search replica with its progress and every search 503 SEARCH_INCOMPLETE; once built, /ready answers 200; the log announces each phase with the products it holds', async () => {
    const building = await ready();
    expect(building.status).toBe(503);
    expect(building.body.checks.searchReplica).toBe('failing');
    expect(building.body.searchReplica).toMatchObject({ state: 'building' });
    expect(validateResponse('getReadiness', building.status, building.body)).toEqual([]);
    expect(replicaLines(pair?.api.output() ?? '').map((line) => line.state)).toEqual(['building']);

    // Its searches are refused meanwhile, a browse too: the replica holds no state the catalogue had.
    const token = await aToken();
    for (const query of ['q=drill', 'size=5']) {
      const search = await rawRequest(`${pair?.api.url}/products/search?${query}`, {
        ca: pair?.ca as string,
        headers: { Authorization: `Bearer ${token}` },
      });
      expect([query, search.status, JSON.parse(search.body).error]).toEqual([
        query,
        503,
        'SEARCH_INCOMPLETE',
      ]);
    }

    await lock?.query('COMMIT');
    let reply = await ready();
    // Bounded by a count of polls, not a duration the build must fit in.
    for (let poll = 0; poll < 1200 && reply.status !== 200; poll += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      reply = await ready();
    }
    expect(reply.status).toBe(200);
    expect(reply.body.checks.searchReplica).toBe('ok');
    expect(reply.body.searchReplica).toMatchObject({ state: 'built', phase: 'done' });
    expect(validateResponse('getReadiness', reply.status, reply.body)).toEqual([]);

    const lines = replicaLines(pair?.api.output() ?? '');
    expect(lines.at(-1)).toMatchObject({ state: 'built', phase: 'done' });
    // Each phase is announced when it starts; the snapshot's with the products it holds.
    const phases = lines.map((line) => line.phase);
    expect(phases).toEqual(expect.arrayContaining(['snapshot-loading', 'snapshot-indexing', 'done']));
    expect(phases.indexOf('snapshot-loading')).toBeLessThan(phases.indexOf('snapshot-indexing'));
    for (const line of lines.filter((entry) => entry.phase.startsWith('snapshot')))
      expect(line).toMatchObject({ unit: 'products', total: PRODUCTS });
  });
});
