// `node bench/replica-build-bench.ts`: how fast a new search replica of a PostgreSQL deployment is
// built, from a snapshot of the source (what the registry's sqlite-replica engine does) and, for comparison, by
// replaying the whole change feed through applyRecords (what it did before). BENCH_PRODUCTS sizes
// (default 100000) of the generated catalogue are seeded into a database of their own,
// catalog_bench_replica_<size> on BENCH_DATABASE_URL's server (default
// postgres://postgres@127.0.0.1:5432/postgres), dropped when done. BENCH_REPLAY=0 skips the replay.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteReplicaSearch as openSqliteSearchReplica } from '../../catalog-search/src/engines/index.ts';
import { FeedFollower } from '../../catalog-search/src/follower/feed-follower.ts';
import { openPostgresRecordStore } from '../src/adapters/postgres/index.ts';
import { type RecordStore, seedCatalogue } from '../src/index.ts';
import { onDatabase } from '../src/testing/index.ts';
import { SEED, SEED_BATCH, SIZES } from './bench-catalogue.ts';

const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REPLAY = process.env.BENCH_REPLAY !== '0';

function onServer(sql: string): Promise<unknown> {
  return onDatabase(SERVER_URL, (client) => client.query(sql));
}

/** Seconds until a new replica has applied the whole feed, and its file's size in MB. */
async function build(
  records: RecordStore,
  how: 'snapshot' | 'replay',
): Promise<{ seconds: number; mb: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'catalog-bench-replica-'));
  const databasePath = join(dataDir, 'replica.sqlite');
  try {
    const started = performance.now();
    const replica = await openSqliteSearchReplica(
      { databasePath, searchWorkers: 1 },
      { origin: await records.changes.origin(), head: await records.changes.head() },
    );
    const { appliedSequence, apply } = replica.target;
    // Without loadSnapshot, the follower replays the feed from its start, as every new replica did.
    const target = how === 'snapshot' ? replica.target : { appliedSequence, apply };
    await new FeedFollower(records.changes, target).catchUp();
    const seconds = (performance.now() - started) / 1000;
    await replica.close();
    return { seconds, mb: statSync(databasePath).size / 1024 / 1024 };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

for (const products of SIZES) {
  const name = `catalog_bench_replica_${products}`;
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await onServer(`CREATE DATABASE ${name}`);
  const records = await openPostgresRecordStore({ url: url.toString() });
  try {
    process.stderr.write(`seeding ${products} products into ${name}\n`);
    await seedCatalogue(
      { ...records, compactSearchIndex: async () => undefined },
      { products, seed: SEED, batchSize: SEED_BATCH },
    );
    const hows = REPLAY ? (['snapshot', 'replay'] as const) : (['snapshot'] as const);
    for (const how of hows) {
      const { seconds, mb } = await build(records, how);
      process.stdout.write(
        `${products} products, replica built by ${how}: ${seconds.toFixed(1)} s, ${Math.round(products / seconds)} products/s, file ${Math.round(mb)} MB (load average ${loadavg()
          .map((n) => n.toFixed(1))
          .join(' ')})\n`,
      );
    }
  } finally {
    await records.close();
    await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}
