// The API bench's query generator (issue 14, goal 1): seeded random queries over the whole parameter
// space of GET /products/search (spec 4.1), each tagged with the shape classes it belongs to, so that
// every class gets its own p99 and a new slow combination cannot hide in an average.
//
// A query's classes pair its text kind with its order, and its text kind and its order each with
// every modifier it carries (filters, deep offset, aggregations): the slow shapes seen so far were
// interactions of two parameters (one common term sorted by category), which these pairs isolate.
import { DatabaseSync } from 'node:sqlite';
import { OFFSET_WINDOW, SORT_COLUMNS, SORT_ORDERS } from '@catalog/contracts';
import { seededRandom } from '@catalog/store';

/** What the generator draws from, read from the benchmark's own catalogue. */
export interface ShapeVocabulary {
  /** Name and description words matching many products (the most frequent in a sample). */
  commonTerms: readonly string[];
  /** The least frequent name and description words of the sample. */
  rareTerms: readonly string[];
  /** Whole product codes and ERP codes (the identifier lookup). */
  identifiers: readonly string[];
  /** Words of one product's name, in order: multi-term queries whose terms occur together. */
  phrases: readonly (readonly string[])[];
  brandNames: readonly string[];
  /** updatedAt values spread over the catalogue's range (ISO 8601). */
  updatedAfter: readonly string[];
  /** Document counts of the chosen common and rare terms, for the report. */
  termProducts: Readonly<Record<string, number>>;
}

export const TEXT_KINDS = [
  'no q',
  'common term',
  'rare term',
  '1-char prefix',
  '2-char prefix',
  '3-char prefix',
  'identifier',
  '2-3 terms',
] as const;
export type TextKind = (typeof TEXT_KINDS)[number];

export interface GeneratedQuery {
  /** Path and query string under the API's base URL. */
  path: string;
  /** Parameters as sent, for the report's slowest query. */
  params: Readonly<Record<string, string>>;
  classes: readonly string[];
}

const WORD = /^[a-z]{3,}$/;

/**
 * Reads the vocabulary from the catalogue file: a sample of every 997th product, and the full-text
 * index's document counts of the sample's words (fts5vocab, one lookup per word).
 */
export function readShapeVocabulary(databasePath: string): ShapeVocabulary {
  const db = new DatabaseSync(databasePath, { readOnly: true });
  try {
    const sample = db
      .prepare(
        `SELECT name, description, product_code, erp_code, brand_name, updated_at
         FROM products WHERE seq % 997 = 1 AND archived = 0`,
      )
      .all() as {
      name: string;
      description: string;
      product_code: string;
      erp_code: string;
      brand_name: string;
      /** Milliseconds since the epoch. */
      updated_at: number;
    }[];
    const words = new Set<string>();
    for (const row of sample) {
      for (const word of `${row.name} ${row.description}`.toLowerCase().split(/[^a-z0-9]+/)) {
        if (WORD.test(word)) words.add(word);
      }
    }
    const docs = db.prepare('SELECT doc FROM product_fts_terms WHERE term = ?');
    const counted = [...words]
      .map((word) => ({ word, doc: (docs.get(word) as { doc: number } | undefined)?.doc ?? 0 }))
      .filter((entry) => entry.doc > 0)
      .sort((a, b) => b.doc - a.doc || a.word.localeCompare(b.word));
    const common = counted.slice(0, 12);
    const rare = counted.slice(-12);
    const updated = sample.map((row) => row.updated_at).sort((a, b) => a - b);
    return {
      commonTerms: common.map((entry) => entry.word),
      rareTerms: rare.map((entry) => entry.word),
      identifiers: sample
        .slice(0, 200)
        .flatMap((row) => [row.product_code, row.erp_code])
        .filter((code) => code !== ''),
      phrases: sample.slice(0, 200).map((row) => row.name.toLowerCase().split(/\s+/).filter(Boolean)),
      brandNames: [...new Set(sample.map((row) => row.brand_name).filter((name) => name !== ''))].slice(
        0,
        200,
      ),
      updatedAfter: [0.1, 0.5, 0.9, 0.99].map((q) =>
        new Date(updated[Math.floor(q * (updated.length - 1))] ?? 0).toISOString(),
      ),
      termProducts: Object.fromEntries([...common, ...rare].map((entry) => [entry.word, entry.doc])),
    };
  } finally {
    db.close();
  }
}

/** The whole sync catalogue, as spec 4.4's first pass asks for it. */
const SYNC_EPOCH = '1970-01-01T00:00:00Z';
const DEEP_OFFSETS = [1_000, 5_000, 9_900] as const;

/** A generator of queries; `next()` draws one. */
export function queryGenerator(vocabulary: ShapeVocabulary, seed: number): () => GeneratedQuery {
  // The catalogue generator's PRNG: the same seed gives the same queries on every machine.
  const rnd = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
  const chance = (p: number) => rnd() < p;

  const text = (kind: TextKind): string | null => {
    switch (kind) {
      case 'no q':
        return null;
      case 'common term':
        return pick(vocabulary.commonTerms);
      case 'rare term':
        return pick(vocabulary.rareTerms);
      case '1-char prefix':
        return pick(vocabulary.commonTerms).slice(0, 1);
      case '2-char prefix':
        return pick(vocabulary.commonTerms).slice(0, 2);
      case '3-char prefix':
        return pick(vocabulary.commonTerms).slice(0, 3);
      case 'identifier':
        return pick(vocabulary.identifiers);
      case '2-3 terms': {
        const phrase = pick(vocabulary.phrases);
        const n = Math.min(phrase.length, chance(0.5) ? 2 : 3);
        const start = Math.floor(rnd() * (phrase.length - n + 1));
        return phrase.slice(start, start + n).join(' ');
      }
    }
  };

  return () => {
    const kind = pick(TEXT_KINDS);
    const params: Record<string, string> = {};
    const q = text(kind);
    if (q !== null) params.q = q;
    // Relevance (no sort) as often as each sort column.
    const sort = rnd() < 1 / (SORT_COLUMNS.length + 1) ? null : pick(SORT_COLUMNS);
    const order = sort === null ? 'relevance' : `sort ${sort}`;
    if (sort !== null) {
      params.sort = sort;
      if (chance(0.8)) params.order = pick(SORT_ORDERS);
    }
    const modifiers: string[] = [];
    if (chance(0.2)) {
      params.brandName = pick(vocabulary.brandNames);
      modifiers.push('brandName');
    }
    if (chance(0.15)) {
      const shown = chance(0.5);
      params.displayOnWeb = String(shown);
      modifiers.push(`displayOnWeb=${shown}`);
    }
    if (chance(0.15)) {
      params.includeArchived = 'true';
      modifiers.push('includeArchived');
    }
    if (chance(0.15)) {
      const epoch = chance(0.3);
      params.updatedAfter = epoch ? SYNC_EPOCH : pick(vocabulary.updatedAfter);
      modifiers.push(epoch ? 'updatedAfter=1970' : 'updatedAfter recent');
    }
    const size = chance(0.1) ? 100 : 20;
    params.size = String(size);
    if (chance(0.15)) {
      params.from = String(Math.min(pick(DEEP_OFFSETS), OFFSET_WINDOW - size));
      modifiers.push('from ≥ 1000');
    }
    if (chance(0.1)) {
      params.includeAggregations = 'true';
      modifiers.push('includeAggregations');
    }
    const classes = [
      `${kind} × ${order}`,
      ...modifiers.flatMap((modifier) => [`${kind} × ${modifier}`, `${order} × ${modifier}`]),
    ];
    return { path: `/products/search?${new URLSearchParams(params)}`, params, classes };
  };
}

/** Distinct queries of the generator, in the order first drawn. */
export function distinctQueries(next: () => GeneratedQuery, count: number): GeneratedQuery[] {
  const seen = new Map<string, GeneratedQuery>();
  for (let draws = 0; seen.size < count && draws < count * 20; draws += 1) {
    const query = next();
    if (!seen.has(query.path)) seen.set(query.path, query);
  }
  return [...seen.values()];
}
