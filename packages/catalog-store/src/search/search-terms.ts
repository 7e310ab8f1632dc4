import { foldText } from './fold-text.ts';

const HAS_WORD_CHARACTER = /[\p{L}\p{N}]/u;

/**
 * Splits q into the terms that must all match. A term without a letter or digit cannot match any
 * token and would make FTS5 reject the query, so it is dropped.
 */
export function searchTerms(q: string): string[] {
  return foldText(q)
    .split(/\s+/)
    .filter((term) => HAS_WORD_CHARACTER.test(term));
}

const WORD_RUNS = /[\p{L}\p{N}]+/gu;

/**
 * One FTS5 phrase per term (the tokenizer splits "ab-100" into "ab" "100"), its last token as a
 * prefix; inside quotes only `"` is special. A one-character last token after another token
 * ("FT018943/1") is matched whole: as a prefix it would merge the doclists of every token
 * starting with that character (hundreds of ms at 1M products) for no gain in precision.
 */
function prefixPhrase(term: string): string {
  const tokens = term.match(WORD_RUNS) ?? [];
  const whole = tokens.length > 1 && (tokens.at(-1)?.length ?? 0) < 2;
  return `"${term.replaceAll('"', '""')}"${whole ? '' : '*'}`;
}

/** Every term as a prefix, anywhere in the indexed columns. */
export function matchAllTerms(terms: readonly string[]): string {
  return terms.map(prefixPhrase).join(' AND ');
}

/** Every term as a prefix within the given column. */
export function matchAllTermsIn(column: string, terms: readonly string[]): string {
  return `{${column}} : (${matchAllTerms(terms)})`;
}

/**
 * The product index also holds `archived` ("0" or "1"): product text matches name the text columns,
 * so that a term such as "1" cannot match that state.
 */
export function matchProductText(terms: readonly string[]): string {
  return `{name description product_code erp_code} : (${matchAllTerms(terms)})`;
}

/** Product text matches that are not archived, decided inside the full-text index. */
export function matchLiveProductText(terms: readonly string[]): string {
  return `(${matchProductText(terms)}) NOT {archived} : "1"`;
}
