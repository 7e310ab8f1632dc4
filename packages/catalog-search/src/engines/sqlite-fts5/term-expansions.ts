import type { DatabaseSync } from 'node:sqlite';
import { snapshotVersion, statement } from '@catalog/store/sqlite-reading';
import { isExpandableTerm, type TermExpansions } from '../../query/search-terms.ts';

/** Past this many index terms a prefix stays a prefix: one merge beats a wide OR on every row. */
const MAX_EXPANSION = 8;

export interface PrefixExpansions {
  expansions: TermExpansions;
  /**
   * At least the number of products matching every term (each term's products, added up over its
   * expansions, archived products included; the smallest over the terms), or Infinity when no
   * term was expanded. A count capped above it needs no cap.
   */
  upperBound: number;
}

const PLAIN = /^[a-z0-9]+$/;

const NONE: PrefixExpansions = { expansions: new Map(), upperBound: Number.POSITIVE_INFINITY };

/** The end of the range of terms starting with `prefix` (its last character plus one). */
function rangeEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

interface IndexTerm {
  term: string;
  doc: number;
}

/** A connection's lookups, valid while its snapshot version (snapshotVersion) stays the same. */
interface LookupCache {
  version: string;
  rows: Map<string, IndexTerm[]>;
}

const caches = new WeakMap<DatabaseSync, LookupCache>();

/** Past this many prefixes a connection's cache starts again; queries repeat few terms. */
const MAX_CACHED = 1_000;

/**
 * fts5vocab computes a term's document count by reading its whole doclist, and so steps from one
 * term to the next: 1.4 ms for "radiator" (99,835 products) at 1M products, paid by every search
 * with that term. Between two commits the answer cannot change, so each connection keeps it.
 */
function lookupCache(db: DatabaseSync): LookupCache {
  const version = snapshotVersion(db);
  let cache = caches.get(db);
  if (cache === undefined || cache.version !== version || cache.rows.size >= MAX_CACHED) {
    cache = { version, rows: new Map() };
    caches.set(db, cache);
  }
  return cache;
}

/** The first index terms (up to MAX_EXPANSION + 1) starting with `prefix`, with their documents. */
function indexTermsStartingWith(db: DatabaseSync, cache: LookupCache, prefix: string): IndexTerm[] {
  let rows = cache.rows.get(prefix);
  if (rows === undefined) {
    const sql = 'SELECT term, doc FROM product_fts_terms WHERE term >= ? AND term < ? LIMIT ?';
    rows = statement(db, sql).all(prefix, rangeEnd(prefix), MAX_EXPANSION + 1) as unknown as IndexTerm[];
    cache.rows.set(prefix, rows);
  }
  return rows;
}

/**
 * Looks up the index terms each prefix term stands for in the term list of the product index
 * (fts5vocab, store migration 4), in the caller's read snapshot (run inside it, after its first
 * read). A term that is not plain lower-case ASCII, or stands for too many terms, stays a prefix.
 */
export function expandPrefixTerms(db: DatabaseSync, terms: readonly string[]): PrefixExpansions {
  const expandable = terms.filter(isExpandableTerm);
  if (expandable.length === 0) return NONE;
  const cache = lookupCache(db);
  const expansions = new Map<string, string[]>();
  let upperBound = Number.POSITIVE_INFINITY;
  for (const term of expandable) {
    if (expansions.has(term)) continue;
    const rows = indexTermsStartingWith(db, cache, term);
    // Index terms are folded already; anything but plain ASCII stays a prefix, to be safe.
    if (rows.length > MAX_EXPANSION || !rows.every((row) => PLAIN.test(row.term))) continue;
    // No term at all: leave it a prefix, which FTS5 answers at once with no match.
    if (rows.length === 0) {
      upperBound = 0;
      continue;
    }
    expansions.set(
      term,
      rows.map((row) => row.term),
    );
    upperBound = Math.min(
      upperBound,
      rows.reduce((sum, row) => sum + row.doc, 0),
    );
  }
  return { expansions, upperBound };
}
