import { PostingLists } from './posting-lists.ts';
import { ProductTokens, TEXT_COLUMNS } from './product-tokens.ts';
import { RoaringBitmap32 } from './roaring.ts';
import { type TermPattern, textTokens } from './text-tokens.ts';
import { TokenDictionary } from './token-dictionary.ts';

/** Prefixes up to this length have a bitmap of their own; longer ones are the union of their tokens'. */
const PREFIX_BITMAP_LENGTH = 3;
/** Terms of several tokens whose matches are kept between searches. */
const PHRASES_KEPT = 256;

/** Where a term may match: any text column, or the name alone (relevance puts those first). */
export type TextScope = 'any' | 'name';

export interface ProductText {
  name: string;
  description: string;
  productCode: string;
  erpCode: string;
}

function prefixesOf(token: string, into: Set<string>): void {
  const longest = Math.min(PREFIX_BITMAP_LENGTH, token.length);
  for (let length = 1; length <= longest; length += 1) into.add(token.slice(0, length));
}

/**
 * The products' text: posting lists per token for every text column and for the name, bitmaps per
 * short prefix, and each product's tokens in order (for phrases, and to clear the lists when it
 * changes). Archived products are here too; the filters take them out.
 */
export class TextIndex {
  readonly #dictionary = new TokenDictionary();
  readonly #any = new PostingLists();
  readonly #name = new PostingLists();
  readonly #prefixAny = new Map<string, RoaringBitmap32>();
  readonly #prefixName = new Map<string, RoaringBitmap32>();
  readonly #tokens = new ProductTokens();
  /**
   * Terms of several tokens already checked, most recently used last; any change of the text
   * empties it. "low-profile" at 1M products checks some 100,000 candidates (about 20 ms).
   */
  readonly #phrases = new Map<string, RoaringBitmap32>();

  /** While a bulk load runs, the token list is sorted once at its end. */
  setBulk(bulk: boolean): void {
    this.#dictionary.setBulk(bulk);
  }

  /** Gives back what the bitmaps reserved while they grew (after a bulk load). */
  shrink(): void {
    this.#tokens.shrink();
    this.#any.shrink();
    this.#name.shrink();
    for (const bitmap of this.#prefixAny.values()) bitmap.shrinkToFit();
    for (const bitmap of this.#prefixName.values()) bitmap.shrinkToFit();
  }

  set(seq: number, text: ProductText): void {
    this.delete(seq);
    this.#phrases.clear();
    const texts = new Map<number, string>();
    const columns = TEXT_COLUMNS.map((column) =>
      textTokens(text[column]).map((token) => {
        const id = this.#dictionary.intern(token);
        texts.set(id, token);
        return id;
      }),
    );
    this.#tokens.set(seq, columns);
    this.#post(seq, columns, 'add', (id) => texts.get(id) as string);
  }

  delete(seq: number): void {
    const view = this.#tokens.get(seq);
    if (view === undefined) return;
    const columns = TEXT_COLUMNS.map((_, index) => [...view.column(index)]);
    this.#post(seq, columns, 'remove', (id) => this.#dictionary.token(id));
    this.#tokens.delete(seq);
  }

  #post(
    seq: number,
    columns: readonly (readonly number[])[],
    change: 'add' | 'remove',
    tokenText: (id: number) => string,
  ): void {
    const anyIds = new Set(columns.flat());
    const nameIds = new Set(columns[0]);
    const anyPrefixes = new Set<string>();
    const namePrefixes = new Set<string>();
    for (const id of anyIds) {
      if (change === 'add') this.#any.add(id, seq);
      else this.#any.remove(id, seq);
      prefixesOf(tokenText(id), anyPrefixes);
    }
    for (const id of nameIds) {
      if (change === 'add') this.#name.add(id, seq);
      else this.#name.remove(id, seq);
      prefixesOf(tokenText(id), namePrefixes);
    }
    for (const [prefixes, bitmaps] of [
      [anyPrefixes, this.#prefixAny],
      [namePrefixes, this.#prefixName],
    ] as const) {
      for (const prefix of prefixes) {
        let bitmap = bitmaps.get(prefix);
        if (change === 'add') {
          if (bitmap === undefined) {
            bitmap = new RoaringBitmap32();
            bitmaps.set(prefix, bitmap);
          }
          bitmap.add(seq);
        } else {
          bitmap?.delete(seq);
        }
      }
    }
  }

  /** The products a token matches in `scope`, exactly or as a prefix; never to be changed by the caller. */
  #token(part: string, prefix: boolean, scope: TextScope): RoaringBitmap32 {
    const lists = scope === 'any' ? this.#any : this.#name;
    if (!prefix) {
      const id = this.#dictionary.idOf(part);
      return id === undefined ? new RoaringBitmap32() : lists.view(id);
    }
    if (part.length <= PREFIX_BITMAP_LENGTH) {
      return (scope === 'any' ? this.#prefixAny : this.#prefixName).get(part) ?? new RoaringBitmap32();
    }
    const union = new RoaringBitmap32();
    for (const id of this.#dictionary.withPrefix(part)) lists.orInto(union, id);
    return union;
  }

  /**
   * The products matching one query term in `scope`: its single token as FTS5 matches it, or its
   * tokens in a row within one column (candidates from the posting lists, each then checked
   * against the product's tokens).
   */
  match(pattern: TermPattern, scope: TextScope): RoaringBitmap32 {
    const { parts, lastIsPrefix } = pattern;
    if (parts.length === 1) return this.#token(parts[0] as string, lastIsPrefix, scope).clone();
    const key = `${scope}\u0000${lastIsPrefix}\u0000${parts.join('\u0000')}`;
    let phrase = this.#phrases.get(key);
    if (phrase === undefined) {
      phrase = this.#phrase(pattern, scope);
      if (this.#phrases.size >= PHRASES_KEPT)
        this.#phrases.delete(this.#phrases.keys().next().value as string);
    } else {
      this.#phrases.delete(key);
    }
    this.#phrases.set(key, phrase);
    return phrase.clone();
  }

  /** A term of several tokens, checked product by product against the tokens in order. */
  #phrase(pattern: TermPattern, scope: TextScope): RoaringBitmap32 {
    const { parts, lastIsPrefix } = pattern;
    const last = parts.length - 1;
    let candidates: RoaringBitmap32 | null = null;
    for (let k = 0; k <= last; k += 1) {
      const bitmap = this.#token(parts[k] as string, k === last && lastIsPrefix, scope);
      candidates = candidates === null ? bitmap.clone() : candidates.andInPlace(bitmap);
      if (candidates.isEmpty) return candidates;
    }
    const exact = parts.slice(0, last).map((part) => this.#dictionary.idOf(part) ?? -1);
    const lastIds = lastIsPrefix
      ? new Set(this.#dictionary.withPrefix(parts[last] as string))
      : new Set([this.#dictionary.idOf(parts[last] as string) ?? -1]);
    const columns = scope === 'any' ? TEXT_COLUMNS.map((_, index) => index) : [0];
    const matched: number[] = [];
    for (const seq of (candidates as RoaringBitmap32).toUint32Array()) {
      const view = this.#tokens.get(seq);
      if (view === undefined) continue;
      if (columns.some((index) => inRow(view.column(index), exact, lastIds))) matched.push(seq);
    }
    return new RoaringBitmap32(matched);
  }
}

/** Whether `tokens` hold `exact` followed by one of `last`, in a row. */
function inRow(tokens: Int32Array, exact: readonly number[], last: ReadonlySet<number>): boolean {
  const span = exact.length + 1;
  for (let start = 0; start + span <= tokens.length; start += 1) {
    let k = 0;
    while (k < exact.length && tokens[start + k] === exact[k]) k += 1;
    if (k === exact.length && last.has(tokens[start + k] as number)) return true;
  }
  return false;
}
