import { foldSearchText } from '@catalog/store/fold-text';

const WORD_RUNS = /[\p{L}\p{N}]+/gu;

/**
 * A text's tokens as the FTS5 index holds them (unicode61 with remove_diacritics 2): runs of
 * letters and digits of the folded text. The differential test holds the two to the same matches.
 */
export function textTokens(text: string): string[] {
  return foldSearchText(text).match(WORD_RUNS) ?? [];
}

/**
 * One query term as FTS5 reads the phrase search-terms.ts makes of it: its tokens in a row within
 * one column, the last as a prefix, except a one-character last token after another, matched whole.
 */
export interface TermPattern {
  readonly parts: readonly string[];
  readonly lastIsPrefix: boolean;
}

export function termPattern(term: string): TermPattern {
  const parts = term.match(WORD_RUNS) ?? [];
  const whole = parts.length > 1 && (parts.at(-1)?.length ?? 0) < 2;
  return { parts, lastIsPrefix: !whole };
}
