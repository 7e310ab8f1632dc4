import { foldSearchText } from '@catalog/store/fold-text';

const HAS_WORD_CHARACTER = /[\p{L}\p{N}]/u;

/**
 * Whitespace and control characters: the index's tokenizer reads a control character as a
 * separator, so q does too ("a\u0000b" is the terms "a" and "b"). Kept inside a quoted FTS5 phrase,
 * a NUL would end the query string there and FTS5 would reject it as unterminated.
 */
const TERM_SEPARATORS = /[\s\p{Cc}]+/u;

/**
 * Splits q into the terms that must all match. A term without a letter or digit cannot match any
 * token and would make FTS5 reject the query, so it is dropped.
 */
export function searchTerms(q: string): string[] {
  return foldSearchText(q)
    .split(TERM_SEPARATORS)
    .filter((term) => HAS_WORD_CHARACTER.test(term));
}

const WORD_RUNS = /[\p{L}\p{N}]+/gu;

/**
 * The index terms a prefix term stands for, when they are few (see expandPrefixTerms in the SQLite
 * adapter): an OR of exact terms streams from their doclists, while a prefix makes FTS5 merge the
 * doclists of every matching term, positions included, before the first row, in every statement
 * that uses it.
 */
export type TermExpansions = ReadonlyMap<string, readonly string[]>;

/**
 * A term the index holds as one token, exactly as written: unicode61 leaves lower-case ASCII
 * letters and digits alone. Two and three characters are served by the index's prefix index.
 */
export function isExpandableTerm(term: string): boolean {
  return /^[a-z0-9]{4,}$/.test(term);
}

/**
 * A term FTS5 can test against one product without merging doclists first: one looked up in the
 * term list (its exact terms), or a plain two- or three-character prefix, which the index's prefix
 * index holds. Any other prefix is merged from every matching term's doclist on each evaluation.
 */
export function testsWithoutMerging(term: string, expansions: TermExpansions): boolean {
  return (expansions.get(term)?.length ?? 0) > 0 || /^[a-z0-9]{2,3}$/.test(term);
}

/**
 * One FTS5 phrase per term (the tokenizer splits "ab-100" into "ab" "100"), its last token as a
 * prefix; inside quotes only `"` is special. A one-character last token after another token
 * ("FT018943/1") is matched whole: as a prefix it would merge the doclists of every token
 * starting with that character (hundreds of ms at 1M products) for no gain in precision.
 */
function prefixPhrase(term: string, expansions: TermExpansions | undefined): string {
  const exact = expansions?.get(term);
  if (exact !== undefined && exact.length > 0) {
    const phrases = exact.map((token) => `"${token}"`);
    return phrases.length === 1 ? (phrases[0] as string) : `(${phrases.join(' OR ')})`;
  }
  const tokens = term.match(WORD_RUNS) ?? [];
  const whole = tokens.length > 1 && (tokens.at(-1)?.length ?? 0) < 2;
  return `"${term.replaceAll('"', '""')}"${whole ? '' : '*'}`;
}

/** Every term as a prefix, anywhere in the indexed columns. */
export function matchAllTerms(terms: readonly string[], expansions?: TermExpansions): string {
  return terms.map((term) => prefixPhrase(term, expansions)).join(' AND ');
}

/** Every term as a prefix within the given column(s). */
export function matchAllTermsIn(
  column: string,
  terms: readonly string[],
  expansions?: TermExpansions,
): string {
  return `{${column}} : (${matchAllTerms(terms, expansions)})`;
}

/**
 * The product index holds a live product's text in name, description, product_code and erp_code,
 * an archived product's in archived_name … archived_erp_code (store migration 4): the columns
 * decide whether archived products match, inside the index.
 */
const LIVE_TEXT = '{name description product_code erp_code}';

/** Every term as a prefix in a product's text; archived products only with `includeArchived`. */
export function matchProductText(
  terms: readonly string[],
  includeArchived: boolean,
  expansions?: TermExpansions,
): string {
  // With archived products every column is text: no column filter, which costs a little per match.
  const all = matchAllTerms(terms, expansions);
  return includeArchived ? `(${all})` : `${LIVE_TEXT} : (${all})`;
}

/** Every term as a prefix in a product's name; archived products only with `includeArchived`. */
export function matchProductName(
  terms: readonly string[],
  includeArchived: boolean,
  expansions?: TermExpansions,
): string {
  return matchAllTermsIn(includeArchived ? 'name archived_name' : 'name', terms, expansions);
}
