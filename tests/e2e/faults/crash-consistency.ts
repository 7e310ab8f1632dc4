// What the kill -9 scenarios check once the killed server is back: the database passes SQLite's own
// checks, every product is whole (never half of one write and half of another), every write the API
// acknowledged is there as sent, and the tables kept by triggers agree with the products.
import { checkDatabaseIntegrity } from '@catalog/store';
import { databasePathOf, type StoreReader } from '../support/store-snapshot.ts';

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
export function faultProductsOnDisk(reader: StoreReader): { gens: Map<string, number>; problems: string[] } {
  const problems: string[] = [];
  const gens = new Map<string, number>();
  const products = reader.all(
    `SELECT p.seq, p.product_code, p.name, p.description, p.price,
            (SELECT count(*) FROM product_relations r WHERE r.product_seq = p.seq) AS relations,
            (SELECT group_concat(DISTINCT r.note) FROM product_relations r WHERE r.product_seq = p.seq) AS notes,
            (SELECT group_concat(DISTINCT r.qty) FROM product_relations r WHERE r.product_seq = p.seq) AS qtys,
            (SELECT v.visible FROM product_channel_visibility v JOIN web_channels c ON c.id = v.channel_id
              WHERE v.product_seq = p.seq AND c.slug = ?) AS visible
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
      notes: `gen ${gen}`,
      qtys: gen,
      visible: gen % 2 === 0 ? 1 : 0,
    };
    const actual = {
      description: genOf(row.description),
      price: row.price,
      relations: row.relations,
      notes: row.notes,
      qtys: Number(row.qtys),
      visible: row.visible,
    };
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      problems.push(`${code}: torn write, name says gen ${gen} but ${JSON.stringify(actual)}`);
    }
  }
  return { gens, problems };
}

/** SQLite's integrity check, foreign keys and the full-text indexes (the store's own check). */
export function integrityProblems(dataDir: string): string[] {
  return checkDatabaseIntegrity(databasePathOf(dataDir)).problems;
}

/** The facet counts the triggers keep, against a count of the products themselves. */
export function facetCountProblems(reader: StoreReader): string[] {
  const facets = [
    ['brandName', 'brand_name'],
    ['category', 'category'],
    ['department', 'department'],
    ['stockType', 'stock_type'],
  ] as const;
  const counted = new Map<string, number>();
  for (const [facet, column] of facets) {
    for (const row of reader.all(
      `SELECT ${column} COLLATE BINARY AS value, archived, count(*) AS n FROM products GROUP BY ${column} COLLATE BINARY, archived`,
    )) {
      counted.set(`${facet}|${String(row.value)}|${String(row.archived)}`, Number(row.n));
    }
  }
  const kept = new Map<string, number>();
  for (const row of reader.all('SELECT facet, value, archived, n FROM facet_counts WHERE n <> 0')) {
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
