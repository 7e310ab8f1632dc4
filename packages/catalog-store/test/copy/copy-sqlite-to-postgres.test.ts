import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openPostgresRecordStore,
  openPostgresSigningKeySetStore,
} from '../../src/adapters/postgres/index.ts';
import { migrate } from '../../src/adapters/sqlite/migrate.ts';
import { MIGRATIONS } from '../../src/adapters/sqlite/migrations/index.ts';
import { openDatabase } from '../../src/adapters/sqlite/open-database.ts';
import {
  type AuditContext,
  type AuditEvent,
  CopyRefusedError,
  catalogDatabasePath,
  copySqliteToPostgres,
  type ProductInput,
  type RecordStore,
} from '../../src/index.ts';
import { aProduct } from '../../src/testing/index.ts';
import { freshSchema, postgresStore } from '../support/postgres-factory.ts';
import { type SqliteStoreHandle, sqliteStore, tempDataDir } from '../support/sqlite-factory.ts';

const ADMIN: AuditContext = {
  actor: { kind: 'admin', userId: 'u-ada', email: 'ada@example.com' },
  sourceIp: '192.0.2.7',
  requestId: 'req-1',
};
const ADA = { userId: 'u-ada', userName: 'Ada Admin' };
const HOUR = 3_600_000;

/** Every event of the trail, newest first, page by page. */
async function wholeTrail(store: RecordStore): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  let before: string | undefined;
  do {
    const page = await store.audit.list({ limit: 50, ...(before === undefined ? {} : { before }) });
    events.push(...page.events);
    before = page.nextBefore ?? undefined;
  } while (before !== undefined);
  return events;
}

/** Everything a deployment keeps, read through the ports. */
async function everything(store: RecordStore, productIds: readonly string[]) {
  const products = await store.products.getMany(productIds);
  return {
    webChannels: await store.webChannels.list(),
    brands: await store.brands.list({ includeArchived: true }),
    products: products.sort((a, b) => a.seq - b.seq),
    clients: await store.clients.list({ status: 'all' }),
    adminUsers: await store.adminUsers.list(),
    webhookSubscriptions: await store.webhooks.listSubscriptions(),
    audit: await wholeTrail(store),
  };
}

function contentHash(path: string): string {
  return createHash('sha256')
    .update(existsSync(path) ? readFileSync(path) : '')
    .digest('hex');
}

/**
 * What the source holds, in its database file and write-ahead log, which a copy must leave as they
 * were. A reader of a WAL database may create the log empty (SQLite coordinates readers with it).
 */
function sourceContent(databasePath: string): string[] {
  return [databasePath, `${databasePath}-wal`].map(contentHash);
}

/**
 * A catalogue with one of everything: channels (one renamed), brands (one renamed, one archived),
 * products with relations both ways, per-channel visibility, an archived one and text COPY must
 * escape; clients active, revoked, expiring, used, bound to a channel; administrators, one disabled;
 * the audit trail those writes leave, plus an event that changes no record.
 */
async function seedSource(store: RecordStore): Promise<string[]> {
  await store.webChannels.create({ slug: 'trade-portal', name: 'Trade' }, ADMIN);
  await store.webChannels.create({ slug: 'retail-site' }, ADMIN);
  await store.webChannels.rename('retail-site', 'Retail web site', ADMIN);
  const acme = await store.brands.create({ name: 'Acme' }, ADMIN);
  await store.brands.create({ name: 'Old Brand', slug: 'old-brand' }, ADMIN);
  await store.brands.update(acme.id, { name: 'Acme Tools' }, ADMIN);
  const [hub, spoke, spare, retired] = [aProduct(), aProduct(), aProduct(), aProduct()] as ProductInput[];
  const products: ProductInput[] = [
    {
      ...(hub as ProductInput),
      brandName: 'Acme Tools',
      description: 'Tabs\tnewlines\nreturns\r backslashes \\ and a literal \\N, ünïcödé 🔧',
      price: 0.1 + 0.2,
      retailPrice: null,
      weight: 1.5e-7,
      displayOnWeb: true,
      webVisibility: { 'trade-portal': true, 'retail-site': false },
      images: [{ url: 'https://cdn.example.com/a.jpg', name: 'Main' }],
      documents: [{ url: 'https://cdn.example.com/a.pdf', name: 'Spec sheet' }],
      spares: [{ productId: (spare as ProductInput).id as string, qty: 2 }],
      relatedProducts: [
        { productId: (spoke as ProductInput).id as string, relationType: 'required', qty: 1, note: 'fits' },
        { productId: (spare as ProductInput).id as string, relationType: 'optional', qty: 3 },
      ],
    },
    {
      ...(spoke as ProductInput),
      brandName: 'Old Brand',
      status: 'discontinued',
      displayOnWeb: false,
      webVisibility: { 'retail-site': true },
      relatedProducts: [
        { productId: (hub as ProductInput).id as string, relationType: 'substitute', qty: 1 },
      ],
    },
    { ...(spare as ProductInput), erpCode: 'ERP-9', createdAt: '2020-02-02T02:02:02.000Z' },
    { ...(retired as ProductInput), status: 'inactive' },
  ];
  await store.products.upsertMany(products, ADMIN);
  await store.products.archive((retired as ProductInput).id as string, ADMIN);
  await store.brands.archive((await store.brands.getBySlug('old-brand'))?.id as string, ADMIN);

  const client = (clientId: string) => ({
    clientId,
    clientName: `Integration ${clientId}`,
    scopes: ['products.read' as const],
    createdBy: ADA,
    expiresAt: null,
    secretHash: `hmac-of-${clientId}`,
    tokenLifetimeSeconds: 3600,
  });
  await store.clients.create(
    { ...client('c-active'), description: 'ERP sync', channel: 'trade-portal' },
    ADMIN,
  );
  await store.clients.recordTokenExchange('c-active', new Date());
  await store.clients.recordUsage('c-active', 42);
  await store.clients.create({ ...client('c-revoked'), scopes: ['products.read', 'brands.read'] }, ADMIN);
  await store.clients.revoke('c-revoked', { userId: 'u-bob', userName: 'Bob' }, ADMIN);
  await store.clients.create({ ...client('c-expiring'), expiresAt: '2031-01-01T00:00:00.000Z' }, ADMIN);
  await store.clients.create({ ...client('c-legacy'), createdAt: '2019-05-05T05:05:05.000Z' });
  await store.webhooks.createSubscription(
    {
      id: 'Swebhook000000000000000001',
      clientId: 'c-active',
      url: 'https://shop.example.com/hooks/catalog',
      description: 'Web shop',
      eventTypes: ['product.created', 'product.changed'],
      enabled: true,
      secretSealed: 'sealed-by-the-api',
      createdBy: ADA,
    },
    ADMIN,
  );

  await store.adminUsers.create(
    { email: 'Ada@Example.com', passwordHash: 'scrypt$ada', groups: ['admins'] },
    ADMIN,
  );
  const bob = await store.adminUsers.create({
    email: 'bob@example.com',
    passwordHash: 'scrypt$bob',
    groups: [],
  });
  await store.adminUsers.update(bob.id, { passwordHash: '!scrypt$bob' }, ADMIN);
  await store.audit.append({
    ...ADMIN,
    action: 'admin.sign-in',
    target: { type: 'admin-user', id: 'u-ada' },
  });
  return products.map((product) => product.id as string);
}

/**
 * The indexes, constraints and triggers of a schema's tables, as definitions with the schema's name
 * left out: what the copy drops, turns off and must give back exactly.
 */
async function schemaShape(url: string, schema: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ item: string }>(
      `SELECT indexdef AS item FROM pg_indexes WHERE schemaname = $1
       UNION ALL SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
         FROM pg_constraint WHERE connamespace = $1::regnamespace
       UNION ALL SELECT tgrelid::regclass::text || ' ' || tgname || ' ' || tgenabled::text
         FROM pg_trigger WHERE NOT tgisinternal
           AND tgrelid IN (SELECT oid FROM pg_class WHERE relnamespace = $1::regnamespace)`,
      [schema],
    );
    return result.rows.map((row) => row.item.replaceAll(`${schema}.`, '')).sort();
  } finally {
    await client.end();
  }
}

/** A migrated, empty PostgreSQL catalogue in its own schema. */
async function emptyTarget() {
  const schema = await freshSchema();
  return { ...schema, target: { url: schema.url, schema: schema.schema } };
}

describe('catalog copy from SQLite to PostgreSQL', () => {
  let source: SqliteStoreHandle;
  let productIds: string[];
  let copy: Awaited<ReturnType<typeof emptyTarget>>;
  let target: RecordStore;

  beforeAll(async () => {
    source = await sqliteStore({ searchWorkers: 1 });
    productIds = await seedSource(source.store);
    // A source whose clock ran ahead: its newest updatedAt is an hour from now.
    const db = new DatabaseSync(source.databasePath);
    db.prepare('UPDATE products SET updated_at = ? WHERE id = ?').run(
      Date.now() + HOUR,
      productIds[1] as string,
    );
    db.close();
    copy = await emptyTarget();
  });
  afterAll(async () => {
    await target?.close();
    await copy?.drop();
    await source?.dispose();
  });

  it('copies every record as the ports read it, ids, seqs and times kept, and never changes the source', async () => {
    const before = sourceContent(source.databasePath);
    const report = await copySqliteToPostgres({ sourcePath: source.databasePath, target: copy.target });
    expect(sourceContent(source.databasePath)).toEqual(before);
    target = await openPostgresRecordStore({ ...copy.target, maxConnections: 2 });
    const copied = await everything(target, productIds);
    expect(copied).toEqual(await everything(source.store, productIds));
    expect(copied.products.map((product) => product.relatedProducts.length)).toEqual([3, 2, 1, 0]);
    expect(copied.clients.map((client) => [client.clientId, client.status])).toContainEqual([
      'c-revoked',
      'revoked',
    ]);
    expect(report.tables).toEqual([
      { table: 'web_channels', rows: 2 },
      { table: 'brands', rows: 2 },
      { table: 'products', rows: 4 },
      { table: 'product_relations', rows: 3 },
      { table: 'product_channel_visibility', rows: 3 },
      { table: 'm2m_clients', rows: 4 },
      { table: 'webhook_subscriptions', rows: 1 },
      { table: 'admin_users', rows: 2 },
      { table: 'audit_events', rows: copied.audit.length },
      { table: 'change_feed', rows: 12 },
    ]);
  });

  it('gives back every index, key, foreign key and trigger it set aside, as the migrations define them', async () => {
    const fresh = await postgresStore();
    try {
      const { url, schema } = fresh.location as { url: string; schema: string };
      expect(await schemaShape(copy.url, copy.schema)).toEqual(await schemaShape(url, schema));
    } finally {
      await fresh.dispose();
    }
  });

  it('writes a change feed naming every copied record once, numbered 1 to n without a gap', async () => {
    const entries = await target.changes.read(0, 1000);
    expect(entries.map((entry) => entry.sequence)).toEqual(entries.map((_, index) => index + 1));
    expect(await target.changes.head()).toBe(entries.length);
    const named = entries.map((entry) => `${entry.entity} ${entry.entityId}`);
    const { brands, products, clients } = await everything(target, productIds);
    const byCreation = (a: { createdAt: string }, b: { createdAt: string }) =>
      a.createdAt.localeCompare(b.createdAt);
    // Channels and brands in the order they were registered, products by seq, clients by creation.
    expect(named).toEqual([
      'web-channel trade-portal',
      'web-channel retail-site',
      ...[...brands].sort(byCreation).map((brand) => `brand ${brand.id}`),
      ...products.map((product) => `product ${product.id}`),
      ...[...clients]
        .sort((a, b) => byCreation(a, b) || a.clientId.localeCompare(b.clientId))
        .map((client) => `client ${client.clientId}`),
    ]);
    const productEntries = entries.filter((entry) => entry.entity === 'product');
    expect(productEntries.map((entry) => entry.changedAt)).toEqual(
      products.map((product) => product.updatedAt),
    );
  });

  it('a write on the target after the copy is stamped after every copied time, with new ids and the next feed sequence', async () => {
    const copied = await everything(target, productIds);
    const head = await target.changes.head();
    const created = await target.products.create(aProduct(), ADMIN);
    const latest = Math.max(...copied.products.map((product) => Date.parse(product.updatedAt)));
    expect(Date.parse(created.updatedAt)).toBeGreaterThan(latest);
    expect(created.seq).toBeGreaterThan(Math.max(...copied.products.map((product) => product.seq)));
    const [event] = (await target.audit.list({ limit: 1 })).events;
    expect(event).toMatchObject({ action: 'product.create', target: { id: created.id } });
    expect(BigInt(event?.id as string)).toBeGreaterThan(BigInt(copied.audit[0]?.id as string));
    expect(await target.changes.read(head, 10)).toEqual([
      { sequence: head + 1, entity: 'product', entityId: created.id, changedAt: created.updatedAt },
    ]);
    const channel = await target.webChannels.create({ slug: 'new-channel' });
    expect(await target.webChannels.get('new-channel')).toEqual(channel);
  });

  it('carries the webhook subscriptions, secrets sealed as they were, hearing only of writes made after the copy', async () => {
    expect(await target.webhooks.listSubscriptions()).toEqual([
      expect.objectContaining({ id: 'Swebhook000000000000000001', secretSealed: 'sealed-by-the-api' }),
    ]);
    const enqueued = await target.webhooks.enqueueChanges(1000);
    expect(enqueued.through).toBe(enqueued.head);
    const claimed = await target.webhooks.claimDue({ limit: 10, perSubscription: 10, leaseMs: 60_000 });
    // The product the test before created on the target; nothing of the copied history.
    expect(claimed.map((delivery) => delivery.eventType)).toEqual(['product.created']);
  });

  it('refuses a target that holds a record and leaves it unchanged', async () => {
    const occupied = await postgresStore();
    try {
      await occupied.store.webChannels.create({ slug: 'already-here' });
      const existing = await occupied.store.products.create(aProduct());
      const { url, schema } = occupied.location as { url: string; schema: string };
      const refused = copySqliteToPostgres({ sourcePath: source.databasePath, target: { url, schema } });
      await expect(refused).rejects.toThrow(CopyRefusedError);
      await expect(refused).rejects.toThrow(/not empty \(rows in web_channels, products, change_feed\)/);
      expect(await occupied.store.products.count()).toBe(1);
      expect(await occupied.store.products.get(existing.id)).toEqual(existing);
      expect((await occupied.store.webChannels.list()).map((channel) => channel.slug)).toEqual([
        'already-here',
      ]);
      expect(await occupied.store.changes.head()).toBe(2);
    } finally {
      await occupied.dispose();
    }
  });

  it('refuses a source behind the current schema version and leaves the file as it was', async () => {
    const dir = tempDataDir();
    try {
      const path = catalogDatabasePath(dir);
      const db = openDatabase(path);
      migrate(db, MIGRATIONS.slice(0, -1));
      db.close();
      const before = sourceContent(path);
      const empty = await emptyTarget();
      try {
        await expect(copySqliteToPostgres({ sourcePath: path, target: empty.target })).rejects.toThrow(
          new RegExp(
            `schema version ${MIGRATIONS.length - 1}, this code's is ${MIGRATIONS.length}: migrate it first`,
          ),
        );
      } finally {
        await empty.drop();
      }
      expect(sourceContent(path)).toEqual(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a copy that fails leaves the target empty', () => {
  /** What an empty, usable target reads as: no record, no feed entry. */
  async function expectEmpty(target: { url: string; schema: string }): Promise<void> {
    const store = await openPostgresRecordStore({ ...target, maxConnections: 1 });
    try {
      expect(await store.products.count()).toBe(0);
      expect(await store.brands.list({ includeArchived: true })).toEqual([]);
      expect(await store.webChannels.list()).toEqual([]);
      expect(await store.clients.list({ status: 'all' })).toEqual([]);
      expect(await store.adminUsers.list()).toEqual([]);
      expect((await store.audit.list({ limit: 10 })).events).toEqual([]);
      expect(await store.changes.head()).toBe(0);
    } finally {
      await store.close();
    }
  }

  it('a row PostgreSQL refuses (a NUL character the embedded engine stored) rolls back every table copied before it', async () => {
    const source = await sqliteStore({ searchWorkers: 1 });
    const empty = await emptyTarget();
    try {
      await source.store.webChannels.create({ slug: 'trade-portal' });
      await source.store.brands.create({ name: 'Acme' });
      await source.store.products.upsertMany([
        aProduct({ brandName: 'Acme' }),
        aProduct({ description: 'pasted from a legacy ERP export\u0000' }),
      ]);
      await expect(
        copySqliteToPostgres({ sourcePath: source.databasePath, target: empty.target }),
      ).rejects.toThrow(
        /copying products: invalid byte sequence for encoding "UTF8": 0x00 \(COPY products, line 2/,
      );
      await expectEmpty(empty.target);
    } finally {
      await empty.drop();
      await source.dispose();
    }
  });

  it('a copy killed with SIGKILL in the middle of the products leaves the target empty, and a copy after it succeeds', async () => {
    const source = await sqliteStore({ searchWorkers: 1 });
    const empty = await emptyTarget();
    const probe = new pg.Client({ connectionString: empty.url });
    await probe.connect();
    try {
      // More products than one chunk of the copy (1,000 rows), so that one chunk is sent and more remain.
      await source.store.products.bulkLoadAll(
        [Array.from({ length: 3_000 }, (_, i) => aProduct({ brandName: `Brand ${i % 50}` }))],
        {},
      );
      const entry = new URL('../../src/index.ts', import.meta.url).href;
      const child = spawn(
        process.execPath,
        [
          '--conditions=source',
          '--input-type=module',
          '-e',
          `const { copySqliteToPostgres } = await import(${JSON.stringify(entry)});
           let productsFrom;
           await copySqliteToPostgres({
             sourcePath: ${JSON.stringify(source.databasePath)},
             target: ${JSON.stringify(empty.target)},
             onProgress: ({ step, copied }) => {
               if (step !== 'products') return;
               if (productsFrom === undefined) productsFrom = copied;
               else {
                 process.stdout.write('stopped in the products at ' + (copied - productsFrom) + '\\n');
                 process.kill(process.pid, 'SIGSTOP');
               }
             },
           });
           process.stdout.write('committed\\n');`,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const exited = new Promise<string | null>((resolve) =>
        child.on('close', (_code, signal) => resolve(signal)),
      );
      let output = '';
      // The copy stops itself after its first chunk of products, whatever the machine's speed: the
      // kill lands in the middle of the products, never after the commit.
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (/^stopped in the products at \d+$/m.test(output)) resolve();
        });
        child.on('close', () => reject(new Error(`the copy ended before it was killed: ${output}`)));
      });
      const sent = Number(/^stopped in the products at (\d+)$/m.exec(output)?.[1]);
      expect(sent).toBeGreaterThan(0);
      expect(sent).toBeLessThan(3_000);
      // The clock's sequence, readable whatever the copy locks, says it has not committed.
      const clock = await probe.query(`SELECT last_sequence FROM ${empty.schema}.write_clock`);
      expect(clock.rows).toEqual([{ last_sequence: '0' }]);
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      expect(output).not.toContain('committed');

      await expectEmpty(empty.target);
      const report = await copySqliteToPostgres({ sourcePath: source.databasePath, target: empty.target });
      expect(report.tables.find((table) => table.table === 'products')).toEqual({
        table: 'products',
        rows: 3_000,
      });
    } finally {
      await probe.end();
      await empty.drop();
      await source.dispose();
    }
  });
});

describe('the source path', () => {
  it('refuses a file that is not there, without creating it', async () => {
    const dir = tempDataDir();
    try {
      const path = join(dir, 'catalog.sqlite');
      await expect(
        copySqliteToPostgres({ sourcePath: path, target: { url: 'postgres://127.0.0.1:1/none' } }),
      ).rejects.toThrow(`no SQLite catalogue at ${path}`);
      expect(existsSync(path)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('catalog copy carries the signing keys', () => {
  /** The target's key set as the token servers read it: its version and the bytes as text. */
  async function keySetOf(target: { url: string; schema: string }) {
    const keys = await openPostgresSigningKeySetStore(target);
    try {
      const stored = await keys.read();
      return stored === undefined ? undefined : [stored.version, Buffer.from(stored.sealed).toString()];
    } finally {
      await keys.close();
    }
  }
  const sealedFor = (version: number) => new Uint8Array(Buffer.from(`keys sealed for version ${version}`));

  let source: SqliteStoreHandle;
  beforeAll(async () => {
    source = await sqliteStore({ searchWorkers: 1 });
    await source.store.webChannels.create({ slug: 'trade-portal' });
  });
  afterAll(() => source?.dispose());

  it("writes the keys it is given as the target's set, sealed for the version they are stored at, in the copy's transaction", async () => {
    const empty = await emptyTarget();
    try {
      const report = await copySqliteToPostgres({
        sourcePath: source.databasePath,
        target: empty.target,
        signingKeys: sealedFor,
      });
      expect(report.signingKeysCopied).toBe(true);
      expect(await keySetOf(empty.target)).toEqual([1, 'keys sealed for version 1']);
    } finally {
      await empty.drop();
    }
  });

  it('replaces a set a token server made on the empty target, one version later, so that server reloads it', async () => {
    const empty = await emptyTarget();
    try {
      const keys = await openPostgresSigningKeySetStore(empty.target);
      await keys.createOnce(new Uint8Array(Buffer.from('made by a token server')));
      await keys.close();
      await copySqliteToPostgres({
        sourcePath: source.databasePath,
        target: empty.target,
        signingKeys: sealedFor,
      });
      expect(await keySetOf(empty.target)).toEqual([2, 'keys sealed for version 2']);
    } finally {
      await empty.drop();
    }
  });

  it("without keys leaves the target's set as it was and reports none copied", async () => {
    const empty = await emptyTarget();
    try {
      const report = await copySqliteToPostgres({ sourcePath: source.databasePath, target: empty.target });
      expect(report.signingKeysCopied).toBe(false);
      expect(await keySetOf(empty.target)).toBeUndefined();
    } finally {
      await empty.drop();
    }
  });

  it('a copy that fails writes no keys either', async () => {
    const broken = await sqliteStore({ searchWorkers: 1 });
    const empty = await emptyTarget();
    try {
      await broken.store.products.upsertMany([aProduct({ description: 'a NUL\u0000' })]);
      await expect(
        copySqliteToPostgres({
          sourcePath: broken.databasePath,
          target: empty.target,
          signingKeys: sealedFor,
        }),
      ).rejects.toThrow(/invalid byte sequence/);
      expect(await keySetOf(empty.target)).toBeUndefined();
    } finally {
      await empty.drop();
      await broken.dispose();
    }
  });
});
