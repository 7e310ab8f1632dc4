// What the kill -9 scenarios check once the killed process is gone (and a killed server is back):
// every product is whole (never half of one write and half of another), and what the engines keep
// beside the records agrees with them. On SQLite: the database passes SQLite's own checks and the
// facet counts its triggers keep match the products. On PostgreSQL: the change feed has an entry for
// every record, numbered 1..N without a gap and N is the write clock's last sequence; and the API's
// search replica passes SQLite's checks, its facet counts match its products, and once it has
// applied the whole feed it holds exactly the records.
import type { StorageLocation } from '@catalog/store';
import { checkDatabaseIntegrity } from '@catalog/store/sqlite';
import {
  openSqliteConnection,
  type StoreConnection,
  searchDatabasePath,
} from '../support/store-connection.ts';

export const FAULT_CHANNEL = 'fault-shop';

/** Codes of the products the fault suites write. */
export const faultCode = (batch: string, writer: number, index: number) => `FLT-${batch}-${writer}-${index}`;

/**
 * A product body whose generation `gen` is written into several tables at once: the product row
 * (name, description, price), its relations (count, qty, note) and its channel visibility. A torn
 * write would leave the generations disagreeing.
 */
export function faultProduct(
  code: string,
  gen: number,
  relatedIds: readonly string[],
): Record<string, unknown> {
  const relations = relatedIds.slice(0, (gen % 3) + 1);
  return {
    productCode: code,
    name: `Fault product ${code} gen ${gen}`,
    description: `gen ${gen}: ${'written under kill -9. '.repeat(8)}`,
    price: gen,
    status: 'active',
    relatedProducts: relations.map((productId) => ({
      productId,
      relationType: 'optional',
      qty: gen,
      note: `gen ${gen}`,
    })),
    webVisibility: { [FAULT_CHANNEL]: gen % 2 === 0 },
  };
}

const genOf = (text: unknown) => Number(/gen (\d+)/.exec(String(text))?.[1] ?? Number.NaN);

/** The generation stored for every fault product (by code), and every inconsistency found. */
export async function faultProductsOnDisk(
  db: StoreConnection,
): Promise<{ gens: Map<string, number>; problems: string[] }> {
  const problems: string[] = [];
  const gens = new Map<string, number>();
  // Lowest and highest of each relation column: one generation written means both are the same.
  // CASE turns the visibility into 1/0 on both engines (SQLite's integer, PostgreSQL's boolean).
  const products = await db.all(
    `SELECT p.seq, p.product_code, p.name, p.description, p.price,
            (SELECT count(*) FROM product_relations r WHERE r.product_seq = p.seq) AS relations,
            (SELECT min(r.note) FROM product_relations r WHERE r.product_seq = p.seq) AS first_note,
            (SELECT max(r.note) FROM product_relations r WHERE r.product_seq = p.seq) AS last_note,
            (SELECT min(r.qty) FROM product_relations r WHERE r.product_seq = p.seq) AS least_qty,
            (SELECT max(r.qty) FROM product_relations r WHERE r.product_seq = p.seq) AS most_qty,
            (SELECT CASE WHEN v.visible THEN 1 ELSE 0 END
               FROM product_channel_visibility v JOIN web_channels c ON c.id = v.channel_id
              WHERE v.product_seq = p.seq AND c.slug = $1) AS visible
       FROM products p WHERE p.product_code LIKE 'FLT-%'`,
    FAULT_CHANNEL,
  );
  for (const row of products) {
    const gen = genOf(row.name);
    const code = String(row.product_code);
    gens.set(code, gen);
    const expected = {
      description: gen,
      price: gen,
      relations: (gen % 3) + 1,
      notes: [`gen ${gen}`, `gen ${gen}`],
      qtys: [gen, gen],
      visible: gen % 2 === 0 ? 1 : 0,
    };
    const actual = {
      description: genOf(row.description),
      price: row.price,
      relations: row.relations,
      notes: [row.first_note, row.last_note],
      qtys: [row.least_qty, row.most_qty],
      visible: row.visible,
    };
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      problems.push(`${code}: torn write, name says gen ${gen} but ${JSON.stringify(actual)}`);
    }
  }
  return { gens, problems };
}

/** The facet counts the triggers keep in a SQLite catalogue, against a count of its products. */
function facetCountProblems(db: StoreConnection): Promise<string[]> {
  return db.reading(() => countFacets(db));
}

async function countFacets(db: StoreConnection): Promise<string[]> {
  const facets = [
    ['brandName', 'brand_name'],
    ['category', 'category'],
    ['department', 'department'],
    ['stockType', 'stock_type'],
  ] as const;
  const counted = new Map<string, number>();
  for (const [facet, column] of facets) {
    for (const row of await db.all(
      `SELECT ${column} COLLATE BINARY AS value, archived, count(*) AS n FROM products GROUP BY ${column} COLLATE BINARY, archived`,
    )) {
      counted.set(`${facet}|${String(row.value)}|${String(row.archived)}`, Number(row.n));
    }
  }
  const kept = new Map<string, number>();
  for (const row of await db.all('SELECT facet, value, archived, n FROM facet_counts WHERE n <> 0')) {
    kept.set(`${String(row.facet)}|${String(row.value)}|${String(row.archived)}`, Number(row.n));
  }
  const problems: string[] = [];
  for (const key of new Set([...counted.keys(), ...kept.keys()])) {
    if (counted.get(key) !== kept.get(key)) {
      problems.push(`facet ${key}: ${kept.get(key) ?? 0} kept, ${counted.get(key) ?? 0} products`);
    }
  }
  return problems;
}

/** Every record with at least one feed entry, entries numbered 1..N, and the write clock at N. */
async function changeFeedProblems(records: StoreConnection): Promise<string[]> {
  return records.reading(async () => {
    const problems = (
      await records.all(
        `SELECT 'product' AS entity, id AS entity_id FROM products
         UNION ALL SELECT 'brand', id FROM brands
         UNION ALL SELECT 'web-channel', slug FROM web_channels
         UNION ALL SELECT 'client', client_id FROM m2m_clients
         EXCEPT SELECT entity, entity_id FROM change_feed
         ORDER BY 1, 2 LIMIT 10`,
      )
    ).map((row) => `${String(row.entity)} ${String(row.entity_id)} has no change-feed entry`);
    const [feed] = await records.all(
      `SELECT count(*) AS entries, coalesce(min(sequence), 1) AS first, coalesce(max(sequence), 0) AS last,
              (SELECT last_sequence FROM write_clock) AS clock
         FROM change_feed`,
    );
    // Sequences are the table's key, so N entries from 1 to N leave no gap.
    if (feed?.first !== 1 || feed.last !== feed.entries)
      problems.push(`change-feed sequences are not 1..N: ${JSON.stringify(feed)}`);
    if (feed?.clock !== feed?.last)
      problems.push(`write_clock.last_sequence is not the feed's last sequence: ${JSON.stringify(feed)}`);
    return problems;
  });
}

/** What a record is once applied: SQLite keeps archived as 1/0, PostgreSQL as a boolean. */
const APPLIED_RECORDS = `SELECT 'product' AS kind, id, updated_at, CASE WHEN archived THEN 1 ELSE 0 END AS archived FROM products
  UNION ALL SELECT 'brand', id, updated_at, CASE WHEN archived THEN 1 ELSE 0 END FROM brands`;

/**
 * The API's replica holds exactly the records, once it has applied the whole feed (it keeps the
 * sequence it applied up to in its meta table): waits for that, since a running API applies in the
 * background.
 */
async function replicaRecordProblems(records: StoreConnection, replica: StoreConnection): Promise<string[]> {
  const [clock] = await records.all('SELECT last_sequence FROM write_clock');
  const applied = async () =>
    Number(
      (await replica.all("SELECT value FROM meta WHERE key = 'replica_applied_sequence'"))[0]?.value ?? 0,
    );
  const deadline = Date.now() + 60_000;
  while ((await applied()) < Number(clock?.last_sequence)) {
    if (Date.now() > deadline)
      return [
        `the replica applied up to ${await applied()}, not the feed's ${clock?.last_sequence}, in 60 s`,
      ];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const key = (row: Record<string, unknown>) =>
    JSON.stringify([row.kind, row.id, row.updated_at, row.archived]);
  const inReplica = new Set((await replica.all(APPLIED_RECORDS)).map(key));
  const inRecords = new Set((await records.all(APPLIED_RECORDS)).map(key));
  return [
    ...[...inRecords].filter((row) => !inReplica.has(row)).map((row) => `missing from the replica: ${row}`),
    ...[...inReplica].filter((row) => !inRecords.has(row)).map((row) => `only in the replica: ${row}`),
  ].slice(0, 10);
}

/** Everything the engine keeps beside the records, against them (see the top of this file). */
export async function storeProblems(location: StorageLocation, records: StoreConnection): Promise<string[]> {
  const searchPath = searchDatabasePath(location);
  const search = openSqliteConnection(searchPath, { readOnly: true });
  try {
    // The replica first: its own checks then see the state that holds every record.
    const problems =
      location.engine === 'postgres'
        ? [...(await changeFeedProblems(records)), ...(await replicaRecordProblems(records, search))]
        : [];
    problems.push(...checkDatabaseIntegrity(searchPath).problems, ...(await facetCountProblems(search)));
    return problems;
  } finally {
    await search.close();
  }
}
