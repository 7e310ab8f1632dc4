/** New tokens kept aside, scanned by every prefix lookup, before they are merged into the sorted list. */
const PENDING_LIMIT = 4096;

/**
 * Every token the index has seen, each with a small integer id for ever (a token whose products
 * all changed keeps its id: ids index the posting lists). Prefix lookups read a sorted list of the
 * tokens; new tokens wait in a short unsorted list until there are enough to merge.
 */
export class TokenDictionary {
  readonly #ids = new Map<string, number>();
  #sorted: string[] = [];
  #pending: string[] = [];

  get size(): number {
    return this.#ids.size;
  }

  idOf(token: string): number | undefined {
    return this.#ids.get(token);
  }

  /** The token's id, given one if it has none. */
  intern(token: string): number {
    let id = this.#ids.get(token);
    if (id === undefined) {
      id = this.#ids.size;
      this.#ids.set(token, id);
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
      out.push(this.#ids.get(token) as number);
    }
    for (const token of this.#pending) {
      if (token.startsWith(prefix)) out.push(this.#ids.get(token) as number);
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
