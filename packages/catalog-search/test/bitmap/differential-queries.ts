import {
  OFFSET_WINDOW,
  type ProductRecord,
  type ProductSearchQuery,
  SORT_FIELDS,
  SORT_ORDERS,
} from '@catalog/store';

/** What queries are drawn from: products of the catalogue as it was sampled. */
export interface QueryVocabulary {
  products: readonly ProductRecord[];
  /** The registered web channels' slugs. */
  channels: readonly string[];
}

const WORD = /[a-z0-9]+/g;

/** Text a user may type: every shape of q spec 4.1 and the FTS5 engine's plans distinguish. */
function textOf(rnd: () => number, products: readonly ProductRecord[]): string | undefined {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
  const product = pick(products);
  const words = `${product.name} ${product.description}`.toLowerCase().match(WORD) ?? ['x'];
  const word = pick(words);
  switch (Math.floor(rnd() * 14)) {
    case 0:
    case 1:
      return undefined;
    case 2:
      return word;
    case 3:
      return word.slice(0, 1);
    case 4:
      return word.slice(0, 2);
    case 5:
      return word.slice(0, 3);
    case 6:
      return product.productCode;
    case 7:
      return product.erpCode === '' ? product.productCode.toLowerCase() : product.erpCode;
    case 8: {
      const start = Math.floor(rnd() * Math.max(1, words.length - 2));
      return words.slice(start, start + 2 + Math.floor(rnd() * 2)).join(' ');
    }
    case 9:
      // A code cut short: a prefix of its last token, or a one-character last token.
      return product.productCode.slice(0, Math.max(2, Math.floor(rnd() * product.productCode.length)));
    case 10:
      return `${word.slice(0, 4)} ${pick(words).slice(0, 2)}`;
    case 11:
      return pick(['///', '  ', 'crème', 'ÉLBOW', 'a-b', 'erp-1', '"quoted"', 'x\u0000y']);
    case 12:
      return product.name.toUpperCase();
    default:
      return `${word}${pick(['', '*', '-', ' -'])}`;
  }
}

/** A query of spec 4.1 drawn over every parameter; `channel` is the calling client's binding. */
export function drawQuery(rnd: () => number, vocabulary: QueryVocabulary): ProductSearchQuery {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
  const chance = (p: number) => rnd() < p;
  const query: ProductSearchQuery = {};
  const q = textOf(rnd, vocabulary.products);
  if (q !== undefined) query.q = q;
  if (chance(0.85)) {
    query.sort = pick(SORT_FIELDS);
    if (chance(0.8)) query.order = pick(SORT_ORDERS);
  }
  if (chance(0.2)) {
    const name = pick(vocabulary.products).brandName;
    query.brandName = chance(0.8) ? name : name.toUpperCase();
  }
  if (chance(0.25)) {
    query.displayOnWeb = chance(0.5);
    query.channel = pick([null, null, ...vocabulary.channels, 'no-such-channel']);
  }
  if (chance(0.2)) query.includeArchived = true;
  if (chance(0.2)) {
    const at = Date.parse(pick(vocabulary.products).updatedAt) + pick([-1, 0, 1]);
    query.updatedAfter = chance(0.3) ? '1970-01-01T00:00:00Z' : new Date(at).toISOString();
  }
  query.size = chance(0.3) ? 1 + Math.floor(rnd() * 100) : 20;
  if (chance(0.2)) {
    const deep = pick([1_000, 5_000, 9_900, Math.floor(rnd() * 200)]);
    query.from = Math.min(deep, OFFSET_WINDOW - query.size);
  }
  if (chance(0.15)) query.includeAggregations = true;
  return query;
}
