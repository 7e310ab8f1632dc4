// kill -9 in the middle of work, on either engine: of either server, then a restart on the same
// DATA_DIR and database (the catalog API during a burst of admin writes and during an integrator's
// sync, the token server during token requests), and of the operator CLI during a bulk import. After
// each: no product is half-written, every acknowledged write is there, the engine's own checks pass
// and what it keeps beside the records agrees with them (crash-consistency.ts), and the sync or the
// import run again converges on the catalogue.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Product } from '@catalog/contracts';
import { createCatalogClient, createFileCheckpointStore, SyncAbortedError, sync } from '@catalog/sdk';
import { requestAccessToken } from '@catalog/server-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report, settings } from '../support/settings.ts';
import { type Credentials, type E2EStack, startE2EStack } from '../support/stack.ts';
import { openStoreConnection, type StoreConnection } from '../support/store-connection.ts';
import {
  FAULT_CHANNEL,
  faultCode,
  faultProduct,
  faultProductsOnDisk,
  storeProblems,
} from './crash-consistency.ts';

let stack: E2EStack;
let db: StoreConnection;
let admin: string;
let relatedIds: string[];
let dir: string;

beforeAll(async () => {
  stack = await startE2EStack({ demoProducts: settings.faults.demoProducts });
  admin = await stack.adminIdToken();
  const channel = await stack.api('/company-settings/web-channels', {
    method: 'POST',
    token: admin,
    body: { slug: FAULT_CHANNEL, name: 'Fault shop' },
  });
  expect(channel.status).toBe(201);
  db = await openStoreConnection(stack.location, { readOnly: true });
  relatedIds = (await db.all('SELECT id FROM products ORDER BY seq LIMIT 3')).map((row) => String(row.id));
  dir = await mkdtemp(join(tmpdir(), 'e2e-faults-'));
});
afterAll(async () => {
  await db?.close();
  await stack?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The state every scenario must leave behind once the killed process is gone or back. */
async function expectConsistentStore(): Promise<Map<string, number>> {
  const { gens, problems } = await faultProductsOnDisk(db);
  expect(problems).toEqual([]);
  expect(await storeProblems(stack.location, db)).toEqual([]);
  return gens;
}

interface WriteLog {
  /** Last generation the API acknowledged, per product code. */
  readonly acknowledged: Map<string, { gen: number; id: string }>;
  /** A write sent without an answer (the kill came first), per product code. */
  readonly inDoubt: Map<string, number>;
}

/**
 * Admin writers, each on its own products: POST each product, then PUT new generations over it, until
 * `stop()`. A write is acknowledged when the API answered 2xx; one without an answer is in doubt.
 */
function adminWriters(batch: string, count: number) {
  const log: WriteLog = { acknowledged: new Map(), inDoubt: new Map() };
  let running = true;
  let acks = 0;
  const writer = async (w: number) => {
    const ids = new Map<string, string>();
    for (let round = 1; running; round += 1) {
      for (let index = 0; index < 3 && running; index += 1) {
        const code = faultCode(batch, w, index);
        const id = ids.get(code);
        const gen = (log.acknowledged.get(code)?.gen ?? 0) + 1;
        log.inDoubt.set(code, gen);
        let reply: Awaited<ReturnType<E2EStack['api']>>;
        try {
          reply = await stack.api(id === undefined ? '/products' : `/products/${id}`, {
            method: id === undefined ? 'POST' : 'PUT',
            token: admin,
            body: faultProduct(code, gen, relatedIds),
            // One writer per product: each rewrite knowingly replaces what is stored.
            ...(id === undefined ? {} : { headers: { 'If-Match': '*' } }),
          });
        } catch {
          return; // the server is gone: this write stays in doubt
        }
        if (reply.status >= 300) throw new Error(`write ${code} gen ${gen} → ${reply.status}: ${reply.text}`);
        const stored = reply.body as { id: string };
        ids.set(code, stored.id);
        log.acknowledged.set(code, { gen, id: stored.id });
        log.inDoubt.delete(code);
        acks += 1;
      }
      if (round > 10_000) return;
    }
  };
  const done = Promise.all(Array.from({ length: count }, (_, w) => writer(w)));
  return {
    log,
    acks: () => acks,
    stop: async () => {
      running = false;
      await done;
    },
    done,
  };
}

const until = async (condition: () => boolean, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('kill -9 and restart', () => {
  it('the catalog API killed during a burst of admin writes: integrity holds, no half-written product, every acknowledged write is there', async () => {
    for (let round = 1; round <= settings.faults.killRounds; round += 1) {
      const writers = adminWriters(`w${round}`, 6);
      // A different moment each round: after 30, 45, 60… acknowledged writes.
      await until(() => writers.acks() >= 15 + 15 * round);
      await stack.kill('api');
      await writers.done;
      await stack.restart('api');

      const gens = await expectConsistentStore();
      const { acknowledged, inDoubt } = writers.log;
      report(`round ${round}: ${writers.acks()} writes acknowledged, ${inDoubt.size} in doubt at the kill`);
      for (const [code, { gen, id }] of acknowledged) {
        // The stored generation is the acknowledged one, or the next one if that write was in flight.
        const allowed = [gen, ...(inDoubt.get(code) === gen + 1 ? [gen + 1] : [])];
        expect(allowed, `${code}`).toContain(gens.get(code));
        const read = await stack.api('/products/batch-get', {
          method: 'POST',
          token: admin,
          body: { ids: [id] },
        });
        expect(read.status).toBe(200);
        const [record] = (read.body as { products: Array<Record<string, unknown>> }).products;
        expect(record).toMatchObject(faultProduct(code, gens.get(code) ?? gen, relatedIds));
      }
      // Products whose creation was in doubt exist whole or not at all (checked above); the search finds
      // every stored one by its code after the restart.
      const product = [...acknowledged.keys()][0];
      const found = await stack.api(`/products/search?q=${product}`, { token: admin });
      expect((found.body as { data: Array<{ productCode: string }> }).data[0]?.productCode).toBe(product);
    }
  });

  it('[4.4 step 4][4.4 step 6] the catalog API killed during an SDK sync() with writes going on: integrity holds, and the sync run after the restart converges on the non-archived catalogue', async () => {
    const credentials = await stack.createClient(['products.read']);
    const client = createCatalogClient({
      baseUrl: stack.baseUrl,
      authUrl: stack.authUrl,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      scopes: ['products.read'],
      ca: stack.ca,
      pacing: false,
      retry: { baseMs: 5, capMs: 50, maxRetryAfterMs: 5_000 },
      attemptTimeoutMs: 5_000,
    });
    const checkpointStore = createFileCheckpointStore(join(dir, 'sync-state.json'));
    const copy = new Map<string, Product>();
    const upsert = (products: Product[]) => {
      for (const product of products) copy.set(product.id, product);
    };
    try {
      for (let round = 1; round <= settings.faults.killRounds; round += 1) {
        const writers = adminWriters(`s${round}`, 2);
        let pagesUpserted = 0;
        const pass = sync({
          client,
          checkpointStore,
          // Mid-pass: the API dies while a page is being written downstream, so the pass can never
          // finish before the kill (the next page is asked of a dead server).
          upsert: async (products) => {
            upsert(products);
            pagesUpserted += 1;
            if (pagesUpserted === 2 + round) await stack.kill('api');
          },
          pageSize: 20,
          retry: { baseMs: 5, capMs: 20 },
        });
        const aborted = await pass.then(
          () => undefined,
          (error: unknown) => error,
        );
        await writers.done;
        expect(pagesUpserted).toBe(2 + round);
        expect(aborted).toBeInstanceOf(SyncAbortedError);
        // Step 4: nothing committed by the aborted pass, its cursor kept for the resumed one.
        const state = await checkpointStore.load();
        expect(state.progress).not.toBeNull();

        await stack.restart('api');
        await expectConsistentStore();
        const resumed = await sync({
          client,
          checkpointStore,
          upsert,
          pageSize: 20,
          retry: { baseMs: 5, capMs: 20 },
        });
        expect(resumed.resumed).toBe(true);
        expect((await checkpointStore.load()).checkpoint).toBe(resumed.checkpoint);
        report(
          `sync round ${round}: aborted after ${(aborted as SyncAbortedError).report.pages} pages, ` +
            `resumed pass ${resumed.pages} pages, ${copy.size} products downstream`,
        );

        // The downstream copy equals the non-archived catalogue, read straight from the database.
        const catalogue = await db.all(
          'SELECT id, product_code, name, price FROM products WHERE NOT archived',
        );
        expect([...copy.keys()].sort()).toEqual(catalogue.map((row) => String(row.id)).sort());
        for (const row of catalogue) {
          const product = copy.get(String(row.id));
          expect({ productCode: product?.productCode, name: product?.name, price: product?.price }).toEqual({
            productCode: row.product_code,
            name: row.name,
            price: row.price,
          });
        }
      }
    } finally {
      await client.close();
    }
  });

  it('the token server killed during token requests: integrity holds, clients are intact, tokens issued before still work, new ones are issued after the restart', async () => {
    const clients: Credentials[] = [];
    for (let i = 0; i < 3; i += 1) clients.push(await stack.createClient(['products.read', 'brands.read']));
    const clientRows = async () =>
      (
        await db.all(
          'SELECT client_id, client_name, scopes, status, secret_hash, token_lifetime_seconds FROM m2m_clients ORDER BY client_id',
        )
      ).map((row) => JSON.stringify(row));
    for (let round = 1; round <= settings.faults.killRounds; round += 1) {
      const before = await clientRows();
      const issued: string[] = [];
      let running = true;
      const requester = async (credentials: Credentials) => {
        while (running) {
          try {
            const reply = await requestAccessToken({
              authUrl: stack.authUrl,
              ca: stack.ca,
              ...credentials,
              scopes: ['brands.read'],
            });
            if (reply.token !== undefined) issued.push(reply.token);
            else if (reply.status !== 200) throw new Error(`token request → ${reply.status}: ${reply.body}`);
          } catch (error) {
            if (error instanceof Error && error.message.startsWith('token request')) throw error;
            return; // the server is gone
          }
        }
      };
      const requesters = Promise.all([...clients, ...clients].map((credentials) => requester(credentials)));
      await until(() => issued.length >= 10);
      await stack.kill('auth');
      running = false;
      await requesters;
      await stack.restart('auth');

      expect(await storeProblems(stack.location, db)).toEqual([]);
      expect(await clientRows()).toEqual(before);
      report(`token round ${round}: ${issued.length} tokens issued before the kill`);
      for (const token of [issued[0] ?? '', issued.at(-1) ?? '']) {
        expect((await stack.api('/brands', { token })).status).toBe(200);
      }
      for (const credentials of clients) {
        const token = await stack.accessToken(credentials, ['brands.read']);
        expect((await stack.api('/brands', { token })).status).toBe(200);
      }
    }
  });

  it('the operator CLI killed during a bulk import (pnpm catalog import): every batch whole or absent with its audit event, no half-written product, and the import run again completes it', async () => {
    // One and a half of the importer's batches of 5,000 (one transaction each): the kill falls between
    // the first commit and the second.
    const total = 7_500;
    const file = join(dir, 'import.ndjson');
    const code = (index: number) => faultCode('imp', 0, index);
    const lines = Array.from({ length: total }, (_, index) =>
      JSON.stringify({ id: randomUUID(), ...faultProduct(code(index), 1, relatedIds) }),
    );
    await writeFile(file, `${lines.join('\n')}\n`);
    const imported = async () =>
      Number((await db.all("SELECT count(*) AS n FROM products WHERE product_code LIKE 'FLT-imp-%'"))[0]?.n);

    const importer = stack.spawnOperator('catalog', ['import', file]);
    let output = '';
    for (const stream of [importer.stdout, importer.stderr])
      stream?.on('data', (chunk: Buffer) => (output += chunk));
    const exited = once(importer, 'exit');
    // Killed as soon as its first batch is committed: the next ones are being checked or written.
    while ((await imported()) === 0) {
      if (importer.exitCode !== null) throw new Error(`import exited with ${importer.exitCode}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    importer.kill('SIGKILL');
    await exited;
    const committed = await imported();
    report(`import killed after ${committed} of ${total} products were committed`);
    expect(committed).toBeLessThan(total);
    // Each batch appends its audit event in the batch's own transaction: the events count exactly the
    // products written.
    const events = await db.all("SELECT details FROM audit_events WHERE action = 'catalogue.import-batch'");
    const counted = events
      .map((event) => JSON.parse(String(event.details)) as { created: number; updated: number })
      .reduce((sum, { created, updated }) => sum + created + updated, 0);
    expect(counted).toBe(committed);
    await expectConsistentStore();

    // Records carry their ids: the same file run again upserts what was committed and adds the rest.
    const rerun = await stack.operator('catalog', ['import', file]);
    expect(rerun.code, rerun.output).toBe(0);
    expect(await imported()).toBe(total);
    await expectConsistentStore();
    const last = code(total - 1);
    const found = await stack.api(`/products/search?q=${last}`, { token: admin });
    expect((found.body as { data: Array<{ productCode: string }> }).data[0]?.productCode).toBe(last);
  });
});
