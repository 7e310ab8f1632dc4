import { HashedIds } from './hashed-ids.ts';
import { TextArena } from './text-arena.ts';

/**
 * New tokens kept aside, scanned by every prefix lookup, until they are merged into the sorted
 * list: a merge reads the whole list (1.6M tokens at 1M products), so it waits for many.
 */
const PENDING_LIMIT = 32_768;

/**
 * Every token the index has seen, each with a small integer id for ever (a token whose products
 * all changed keeps its id: ids index the posting lists), its text in an arena outside V8's heap.
 * Prefix lookups binary-search the ids sorted by token; new tokens wait in a short unsorted list
 * until there are enough to merge, and a bulk load sorts them all once at its end.
 */
export class TokenDictionary {
  readonly #tokens = new TextArena();
  #size = 0;
  readonly #ids = new HashedIds((id, token) => this.#tokens.get(id) === token);
  #sorted = new Uint32Array(0);
  #pending: number[] = [];
  #bulk = false;

  get size(): number {
    return this.#size;
  }

  token(id: number): string {
    return this.#tokens.get(id);
  }

  idOf(token: string): number | undefined {
    return this.#ids.first(token);
  }

  /** The token's id, given one if it has none. */
  intern(token: string): number {
    let id = this.#ids.first(token);
    if (id === undefined) {
      id = this.#size;
      this.#size += 1;
      this.#tokens.set(id, token);
      this.#ids.add(token, id);
      this.#pending.push(id);
      if (!this.#bulk && this.#pending.length > PENDING_LIMIT) this.#merge();
    }
    return id;
  }

  /** While a bulk load runs, new tokens are only collected; its end sorts them all at once. */
  setBulk(bulk: boolean): void {
    this.#bulk = bulk;
    if (!bulk) {
      this.#merge();
      this.#tokens.shrink();
    }
  }

  /** Ids of the tokens starting with `prefix`. */
  withPrefix(prefix: string): number[] {
    const out: number[] = [];
    const sorted = this.#sorted;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#tokens.get(sorted[mid] as number) < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < sorted.length; i += 1) {
      const id = sorted[i] as number;
      if (!this.#tokens.get(id).startsWith(prefix)) break;
      out.push(id);
    }
    for (const id of this.#pending) if (this.#tokens.get(id).startsWith(prefix)) out.push(id);
    return out;
  }

  /** The pending ids sorted by token, merged into the sorted list, each token read once. */
  #merge(): void {
    if (this.#pending.length === 0) return;
    const text = (id: number) => this.#tokens.get(id);
    const pendingText = this.#pending.map(text);
    const order = this.#pending
      .map((_, i) => i)
      .sort((a, b) => ((pendingText[a] as string) < (pendingText[b] as string) ? -1 : 1));
    const sorted = this.#sorted;
    const merged = new Uint32Array(sorted.length + order.length);
    let i = 0;
    let j = 0;
    let k = 0;
    let current = i < sorted.length ? text(sorted[i] as number) : '';
    while (i < sorted.length && j < order.length) {
      const p = order[j] as number;
      if (current < (pendingText[p] as string)) {
        merged[k++] = sorted[i++] as number;
        if (i < sorted.length) current = text(sorted[i] as number);
      } else {
        merged[k++] = this.#pending[p] as number;
        j += 1;
      }
    }
    while (i < sorted.length) merged[k++] = sorted[i++] as number;
    while (j < order.length) merged[k++] = this.#pending[order[j++] as number] as number;
    this.#sorted = merged;
    this.#pending = [];
  }
}
