import { HashedIds } from './hashed-ids.ts';

/**
 * New tokens kept aside, scanned by every prefix lookup, until they are merged into the sorted
 * list: a merge walks the whole list (1.6M tokens at 1M products), so it waits for many.
 */
const PENDING_LIMIT = 32_768;

/**
 * Every token the index has seen, each with a small integer id for ever (a token whose products
 * all changed keeps its id: ids index the posting lists). Prefix lookups read a sorted list of the
 * tokens; new tokens wait in a short unsorted list until there are enough to merge.
 */
export class TokenDictionary {
  readonly #tokens: string[] = [];
  readonly #ids = new HashedIds((id, token) => this.#tokens[id] === token);
  #sorted: string[] = [];
  #pending: string[] = [];

  get size(): number {
    return this.#tokens.length;
  }

  token(id: number): string {
    return this.#tokens[id] as string;
  }

  idOf(token: string): number | undefined {
    return this.#ids.first(token);
  }

  /** The token's id, given one if it has none. */
  intern(token: string): number {
    let id = this.#ids.first(token);
    if (id === undefined) {
      id = this.#tokens.length;
      this.#tokens.push(token);
      this.#ids.add(token, id);
      this.#pending.push(token);
      if (this.#pending.length > PENDING_LIMIT) this.#merge();
    }
    return id;
  }

  /** Ids of the tokens starting with `prefix`. */
  withPrefix(prefix: string): number[] {
    const out: number[] = [];
    const sorted = this.#sorted;
    for (let i = lowerBound(sorted, prefix); i < sorted.length; i += 1) {
      const token = sorted[i] as string;
      if (!token.startsWith(prefix)) break;
      out.push(this.#ids.first(token) as number);
    }
    for (const token of this.#pending) {
      if (token.startsWith(prefix)) out.push(this.#ids.first(token) as number);
    }
    return out;
  }

  #merge(): void {
    const pending = this.#pending.sort();
    const sorted = this.#sorted;
    const merged: string[] = new Array(sorted.length + pending.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < sorted.length && j < pending.length) {
      merged[k++] =
        (sorted[i] as string) < (pending[j] as string) ? (sorted[i++] as string) : (pending[j++] as string);
    }
    while (i < sorted.length) merged[k++] = sorted[i++] as string;
    while (j < pending.length) merged[k++] = pending[j++] as string;
    this.#sorted = merged;
    this.#pending = [];
  }
}

function lowerBound(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as string) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
