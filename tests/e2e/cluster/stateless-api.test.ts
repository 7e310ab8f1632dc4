// The catalog API's instances keep nothing a caller depends on: a revocation made through one is
// enforced by the other from the next request, usage counted by both adds up exactly, and
// catalog-sync gets every product exactly once while one instance is killed with -9 and restarted by
// its supervisor, nginx sending its requests to the other (no GET through nginx fails meanwhile). And
// nginx itself answers as the servers would: HTTPS only, JSON error bodies, a caller's own
// X-Forwarded-Proto ignored.
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rawRequest, requestAccessToken, runEntry } from '@catalog/server-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonReply } from '../support/json-reply.ts';
import { report } from '../support/settings.ts';
import { clusterStack, type E2EStack } from '../support/stack.ts';
import { openStoreConnection } from '../support/store-connection.ts';
import { type Cluster, startCluster } from './support/cluster.ts';
import { direct } from './support/direct-call.ts';

const syncBin = fileURLToPath(new URL('../../../packages/sdk/dist/cli/bin.js', import.meta.url));
/** The demo catalogue: enough pages of ten for catalog-sync to be mid-pass for a few seconds. */
const PRODUCTS = 1_000;

let cluster: Cluster;
let stack: E2EStack;
let admin: string;
let dir: string;

beforeAll(async () => {
  // The limits of spec 8 are the other file's subject: off here, so nothing here waits for them.
  cluster = await startCluster({
    demoProducts: PRODUCTS,
    env: { RATE_LIMIT_RPS: '0', RATE_LIMIT_IP_PER_5MIN: '0', USAGE_FLUSH_MS: '250' },
  });
  stack = clusterStack(cluster);
  admin = await stack.adminIdToken();
  dir = await mkdtemp(join(tmpdir(), 'e2e-cluster-api-'));
});
afterAll(async () => {
  await stack?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const search = '/products/search?size=1';

describe('admin writes racing through different instances (issue 29: conditional writes)', () => {
  it("two administrators write the product they both read, each through another API instance at once: exactly one 200, the other 412 with the winner's ETag, and the stored record is the winner's", async () => {
    const [one, other] = cluster.api;
    const created = await direct(one, '/products', {
      method: 'POST',
      token: admin,
      body: { productCode: 'RACE-1', name: 'Raced', internalNote: 'before' },
    });
    expect(created.status, created.text).toBe(201);
    const id = (created.body as { id: string }).id;
    // The tag is the same from either instance: it is the stored version's, not an instance's.
    const readOne = await direct(one, `/admin/products/${id}`, { token: admin });
    const readOther = await direct(other, `/admin/products/${id}`, { token: admin });
    const tag = String(readOne.headers.etag);
    expect(String(readOther.headers.etag)).toBe(tag);

    const replies = await Promise.all(
      [one, other].map((instance, index) =>
        direct(instance, `/products/${id}`, {
          method: 'PUT',
          token: admin,
          headers: { 'if-match': tag },
          body: { productCode: 'RACE-1', name: 'Raced', internalNote: `written through ${index}` },
        }),
      ),
    );
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 412]);
    const [winner, loser] = [200, 412].map((status) => replies.find((reply) => reply.status === status)) as [
      JsonReply,
      JsonReply,
    ];
    expect(loser.body).toMatchObject({ error: 'PRECONDITION_FAILED' });
    expect(String(loser.headers.etag)).toBe(String(winner.headers.etag));
    const stored = await stack.api(`/admin/products/${id}`, { token: admin });
    expect((stored.body as { internalNote: string }).internalNote).toBe(
      (winner.body as { internalNote: string }).internalNote,
    );
  });
});

describe('[5 rule 8] revocation reaches every instance', () => {
  it('[5 rule 8][8 Revocation][3 active→revoked] a client revoked through one API instance: its token refused (403) by the other from the very next request, and through nginx; neither token server issues it a token', async () => {
    const client = await stack.createClient(['products.read']);
    const token = await stack.accessToken(client, ['products.read']);
    const [one, other] = cluster.api;
    expect((await direct(other, search, { token })).status).toBe(200);
    expect((await direct(one, search, { token })).status).toBe(200);

    const revoked = await direct(one, `/oauth/clients/${client.clientId}`, {
      method: 'DELETE',
      token: admin,
    });
    expect(revoked.status).toBe(200);
    const next = await direct(other, search, { token });
    expect(next.status).toBe(403);
    expect(next.body).toEqual({ message: 'Forbidden' });
    // Through nginx: whichever instance answers.
    for (let i = 0; i < 4; i += 1) expect((await stack.api(search, { token })).status).toBe(403);

    const form = {
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: 'crm-api/products.read',
    };
    for (const server of cluster.auth) {
      const refused = await direct(server, '/oauth2/token', { method: 'POST', form });
      expect(refused.status, server.name).toBe(400);
      expect(refused.body).toMatchObject({ error: 'invalid_client' });
    }
    const throughNginx = await requestAccessToken({
      authUrl: cluster.authUrl,
      ca: cluster.ca,
      ...client,
      scopes: ['products.read'],
    });
    expect(throughNginx.status).toBe(400);
  });
});

describe('[2.4 usageCount] usage counted by every instance', () => {
  it('[2.4 usageCount] calls sent to both instances in turn add up to exactly their number once each instance has flushed (USAGE_FLUSH_MS)', async () => {
    const client = await stack.createClient(['products.read']);
    const token = await stack.accessToken(client, ['products.read']);
    const calls = 40;
    for (let i = 0; i < calls; i += 1)
      expect((await direct(cluster.api[i % 2] as (typeof cluster.api)[0], search, { token })).status).toBe(
        200,
      );

    const usage = async () => {
      const reply = await stack.api('/oauth/clients?status=all', { token: admin });
      const clients = (reply.body as { clients: Array<{ clientId: string; usageCount: number }> }).clients;
      return clients.find((entry) => entry.clientId === client.clientId)?.usageCount;
    };
    const deadline = Date.now() + 30_000;
    let counted = await usage();
    while ((counted ?? 0) < calls && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      counted = await usage();
    }
    expect(counted).toBe(calls);
  });
});

describe('[4.4 step 6] catalog-sync through an instance killed with -9', () => {
  it('[4.4 step 4][4.4 step 6] catalog-sync (the SDK runner) through nginx while one API instance is killed with -9 mid-pass: nginx serves every request from the other, the instance comes back, and the pass completes (or the next run resumes it) with every product exactly once in the output', async () => {
    const client = await stack.createClient(['products.read']);
    const out = join(dir, 'products.ndjson');
    const checkpoint = join(dir, 'sync-state.json');
    let pages = 0;
    const runSync = () => {
      const child = runEntry({
        entry: syncBin,
        sourceConditions: false,
        env: { CATALOG_CLIENT_SECRET: client.clientSecret },
        args: [
          ...['--base-url', cluster.baseUrl, '--auth-url', cluster.authUrl, '--client-id', client.clientId],
          ...['--ca', join(cluster.dir, 'tls', 'ca.pem'), '--out', out, '--checkpoint', checkpoint],
          ...['--page-size', '10', '--log-format', 'json', '--log-level', 'debug', '--no-progress'],
        ],
      });
      let output = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        for (const match of output.matchAll(/"msg":"page","pages":(\d+)/g))
          pages = Math.max(pages, Number(match[1]));
      });
      return { child, exited: once(child, 'exit') as Promise<[number | null]>, output: () => output };
    };

    const first = runSync();
    const deadline = Date.now() + 60_000;
    while (pages < 10) {
      if (Date.now() > deadline || first.child.exitCode !== null)
        throw new Error(`catalog-sync logged ${pages} pages:\n${first.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const [victim] = cluster.api;
    const killed = await victim.kill();
    const pagesAtKill = pages;
    // Passive fail-over: the dead instance's connections are refused, and nginx sends the requests
    // to the other one until its supervisor has started it again.
    for (let i = 0; i < 10; i += 1) expect((await stack.api('/health')).status).toBe(200);
    await killed.restarted();
    const [code] = await first.exited;
    const codes = [code];
    if (code !== 0) {
      // Retryable (75): nothing committed, the pass's cursor kept; the next run resumes it.
      const second = runSync();
      codes.push((await second.exited)[0]);
    }
    report(
      `catalog-sync: killed api-1 after ${pagesAtKill} pages, ${pages} pages in all, exit codes ${codes.join(', ')}`,
    );
    expect(codes.at(-1)).toBe(0);
    expect(codes.slice(0, -1).every((exit) => exit === 75)).toBe(true);
    expect(pages).toBeGreaterThan(pagesAtKill);

    const lines = (await readFile(out, 'utf8')).split('\n').filter((line) => line !== '');
    const ids = lines.map((line) => (JSON.parse(line) as { id: string }).id);
    const db = await openStoreConnection(
      { engine: 'postgres', url: cluster.database.url, dataDir: cluster.dir },
      { readOnly: true },
    );
    try {
      const catalogue = await db.all('SELECT id FROM products WHERE NOT archived');
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual(catalogue.map((row) => String(row.id)).sort());
    } finally {
      await db.close();
    }
  });
});

describe('README "Deployment": an instance that dies is restarted while nginx serves from the others', () => {
  it('an API instance killed with -9 is started again by its supervisor on its own port, and not one GET through nginx fails while it is down or until it is back', async () => {
    const client = await stack.createClient(['products.read']);
    const token = await stack.accessToken(client, ['products.read']);
    const [victim] = cluster.api;
    const killedPid = victim.service().child.pid;
    const killed = await victim.kill();
    let back = false;
    const comeBack = killed.restarted().then(() => {
      back = true;
    });
    // Sequential GETs for as long as it is down, bounded by count; a pause between them keeps the
    // count from running out before a loaded machine has restarted the instance.
    const MAX_GETS = 1_500;
    const failed: Array<{ status: number; body: unknown }> = [];
    let sent = 0;
    while (!back && sent < MAX_GETS) {
      const reply = await stack.api(search, { token });
      sent += 1;
      if (reply.status !== 200) failed.push({ status: reply.status, body: reply.body });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await comeBack;
    report(`supervision: ${sent} GETs through nginx while api-1 was down, ${failed.length} failed`);
    expect(failed).toEqual([]);
    expect(victim.service().child.pid).not.toBe(killedPid);

    // Back on its own port, the one in nginx's upstream: its /ready turns 200.
    const deadline = Date.now() + 120_000;
    let ready = await direct(victim, '/ready');
    while (ready.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ready = await direct(victim, '/ready');
    }
    expect(ready.status).toBe(200);
    expect((await direct(victim, search, { token })).status).toBe(200);
    for (let i = 0; i < 10; i += 1) expect((await stack.api(search, { token })).status).toBe(200);
  });
});

describe('[5 rule 10] nginx in front answers as the servers do', () => {
  it('[5 rule 10][7.2 message] plain HTTP on nginx’s ports: 400 with a JSON body saying HTTPS only (the API’s message, the token endpoint’s invalid_request), as the servers answer it', async () => {
    const plain = (url: string) => rawRequest(`${url.replace('https:', 'http:')}/health`);
    const [api, auth] = await Promise.all([plain(cluster.baseUrl), plain(cluster.authUrl)]);
    for (const reply of [api, auth]) {
      expect(reply.status).toBe(400);
      expect(reply.headers['content-type']).toMatch(/^application\/json/);
    }
    expect(JSON.parse(api.body)).toEqual({ message: expect.stringMatching(/HTTPS only/) });
    expect(JSON.parse(auth.body)).toEqual({
      error: 'invalid_request',
      error_description: expect.stringMatching(/HTTPS only/),
    });
  });

  it('[7.2 message] a body over 1 MiB is refused by nginx before any instance (413, the API’s own JSON message); a caller’s X-Forwarded-Proto: http is replaced, not believed', async () => {
    const tooLarge = await stack.api('/products', {
      method: 'POST',
      token: admin,
      body: { name: 'x'.repeat(1024 * 1024), productCode: 'TOO-LARGE' },
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toEqual({ message: 'The request body is larger than 1mb' });
    const client = await stack.createClient(['products.read']);
    const token = await stack.accessToken(client, ['products.read']);
    expect((await stack.api(search, { token, headers: { 'x-forwarded-proto': 'http' } })).status).toBe(200);
  });
});
