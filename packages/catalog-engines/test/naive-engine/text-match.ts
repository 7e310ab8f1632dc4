import { foldSearchText } from '@catalog/store/fold-text';

const WORD_RUNS = /[\p{L}\p{N}]+/gu;

/** A text's tokens as the index's unicode61 tokenizer (remove_diacritics 2) would hold them. */
export function tokens(text: string): string[] {
  return foldSearchText(text).match(WORD_RUNS) ?? [];
}

/**
 * One query term against one column's tokens: the term's own tokens in a row, the last as a prefix,
 * except a one-character last token after another, which must match whole (search-terms.ts).
 */
function termInColumn(term: string, column: readonly string[]): boolean {
  const parts = term.match(WORD_RUNS) ?? [];
  const last = parts.length - 1;
  const whole = parts.length > 1 && (parts[last]?.length ?? 0) < 2;
  for (let start = 0; start + parts.length <= column.length; start += 1) {
    const matches = parts.every((part, k) => {
      const token = column[start + k] as string;
      return k < last || whole ? token === part : token.startsWith(part);
    });
    if (matches) return true;
  }
  return false;
}

/** Every term, each within some one of the columns. */
export function allTermsIn(terms: readonly string[], columns: readonly (readonly string[])[]): boolean {
  return terms.every((term) => columns.some((column) => termInColumn(term, column)));
}
