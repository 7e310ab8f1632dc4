import type { CatalogueIndex } from './catalogue-index.ts';
import { RoaringBitmap32 } from './roaring.ts';
import { type Comparable, comparable, compareKeys, type SortKey } from './sort-keys.ts';

const TWO_32 = 2 ** 32;

/** Where a page resumes: after this key and seq in the order's direction. */
export interface OrderPosition {
  key: Comparable;
  seq: number;
}

/** A located row: its seq and its raw sort key (what a cursor carries). */
export interface SortedRow {
  seq: number;
  k: string | number;
}

/** Candidates up to this many are sorted by rank; more are found by walking or marking ranks. */
const SORTED_BY_RANK = 4096;
/** A candidate set at least this share of the order is walked rank by rank, each rank tested. */
const WALK_SHARE = 1 / 8;

/**
 * One sort field's order, precomputed (Lucene's doc values): every product's rank by (key, seq)
 * ascending, the products by rank, and each rank's key as it was when built. Products changed since
 * (`changed`) keep their old rank, are skipped there and merged in by their current key, so a
 * write never waits for a rebuild; the order is rebuilt once enough have changed.
 */
export class SortOrder {
  readonly #index: CatalogueIndex;
  readonly #key: SortKey;
  /** Seq by rank. */
  #order = new Uint32Array(0);
  /** Rank by seq; -1: not in the order (added since). */
  #rankOf = new Int32Array(0);
  /** The distinct keys ascending, and each rank's index among them. */
  #keys: Comparable[] = [];
  #keyAt = new Uint32Array(0);
  #changed: RoaringBitmap32;
  #marks = new Uint8Array(0);

  constructor(index: CatalogueIndex, key: SortKey) {
    this.#index = index;
    this.#key = key;
    this.#changed = index.track();
    this.#build();
  }

  /** Rebuilt when the products changed since are more than a walk should skip. */
  #fresh(): void {
    const limit = Math.max(2048, this.#order.length / 50);
    if (this.#changed.size > limit) this.#build();
  }

  #build(): void {
    this.#index.untrack(this.#changed);
    this.#changed = this.#index.track();
    const seqs = this.#index.all.toUint32Array();
    const values = new Array<Comparable>(seqs.length);
    const distinct = new Set<Comparable>();
    for (let i = 0; i < seqs.length; i += 1) {
      const value = comparable(this.#key, this.#key.raw(seqs[i] as number));
      values[i] = value;
      distinct.add(value);
    }
    const keys = [...distinct].sort(compareKeys);
    const keyIndex = new Map<Comparable, number>(keys.map((key, i) => [key, i]));
    const packed = new Float64Array(seqs.length);
    for (let i = 0; i < seqs.length; i += 1) {
      packed[i] = (keyIndex.get(values[i] as Comparable) as number) * TWO_32 + (seqs[i] as number);
    }
    packed.sort();
    const order = new Uint32Array(seqs.length);
    const keyAt = new Uint32Array(seqs.length);
    const maxSeq = seqs.length === 0 ? 0 : (seqs[seqs.length - 1] as number);
    const rankOf = new Int32Array(maxSeq + 1).fill(-1);
    for (let rank = 0; rank < packed.length; rank += 1) {
      const value = packed[rank] as number;
      const seq = value % TWO_32;
      order[rank] = seq;
      keyAt[rank] = Math.floor(value / TWO_32);
      rankOf[seq] = rank;
    }
    this.#order = order;
    this.#keyAt = keyAt;
    this.#keys = keys;
    this.#rankOf = rankOf;
    this.#marks = new Uint8Array(order.length);
  }

  /** Products in the order (changed ones excluded) whose key is above `key`: for updatedAfter. */
  above(key: Comparable): RoaringBitmap32 {
    this.#fresh();
    const start = this.#firstRank((rank) => compareKeys(this.#keyOfRank(rank), key) > 0);
    const changed = this.#changed;
    let clean: RoaringBitmap32;
    if (start === 0) {
      clean = RoaringBitmap32.andNot(this.#index.all, changed);
    } else if (start * 2 > this.#order.length) {
      clean = new RoaringBitmap32(this.#order.subarray(start)).andNotInPlace(changed);
    } else {
      const below = new RoaringBitmap32(this.#order.subarray(0, start));
      clean = RoaringBitmap32.andNot(this.#index.all, below).andNotInPlace(changed);
    }
    for (const seq of RoaringBitmap32.and(changed, this.#index.all)) {
      if (compareKeys(comparable(this.#key, this.#key.raw(seq)), key) > 0) clean.add(seq);
    }
    return clean;
  }

  /**
   * Up to `limit` of `candidates` in (key, seq) order ascending or descending, after `after` when
   * given: the clean candidates from the precomputed ranks, the changed ones sorted by their
   * current key, merged.
   */
  rows(
    candidates: RoaringBitmap32,
    descending: boolean,
    after: OrderPosition | null,
    limit: number,
  ): SortedRow[] {
    this.#fresh();
    const changed = RoaringBitmap32.and(candidates, this.#changed);
    const clean = changed.isEmpty ? candidates : RoaringBitmap32.andNot(candidates, changed);
    const fromClean = this.#cleanRanks(clean, descending, after, limit);
    const fromChanged = this.#changedRows(changed, descending, after, limit);
    const sign = descending ? -1 : 1;
    const out: SortedRow[] = [];
    let i = 0;
    let j = 0;
    while (out.length < limit && (i < fromClean.length || j < fromChanged.length)) {
      const rank = fromClean[i];
      const other = fromChanged[j];
      let takeClean = other === undefined;
      if (rank !== undefined && other !== undefined) {
        const seq = this.#order[rank] as number;
        const order = compareKeys(this.#keyOfRank(rank), other.key) || seq - other.seq;
        takeClean = order * sign < 0;
      }
      if (takeClean) {
        const seq = this.#order[rank as number] as number;
        out.push({ seq, k: this.#key.raw(seq) });
        i += 1;
      } else {
        out.push({ seq: (other as OrderPosition).seq, k: this.#key.raw((other as OrderPosition).seq) });
        j += 1;
      }
    }
    return out;
  }

  #keyOfRank(rank: number): Comparable {
    return this.#keys[this.#keyAt[rank] as number] as Comparable;
  }

  /** The first rank for which `beyond` holds, `beyond` false then true along the ranks. */
  #firstRank(beyond: (rank: number) => boolean): number {
    let lo = 0;
    let hi = this.#order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (beyond(mid)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Ranks of the clean candidates after the cursor, in the direction, at most `limit`. */
  #cleanRanks(
    clean: RoaringBitmap32,
    descending: boolean,
    after: OrderPosition | null,
    limit: number,
  ): number[] {
    const size = clean.size;
    if (size === 0 || limit === 0) return [];
    const order = this.#order;
    // Ascending: ranks from `start` up; descending: ranks below `start`, down.
    let start = descending ? order.length : 0;
    if (after !== null) {
      start = this.#firstRank((rank) => {
        const c = compareKeys(this.#keyOfRank(rank), after.key) || (order[rank] as number) - after.seq;
        return descending ? c >= 0 : c > 0;
      });
    }
    const out: number[] = [];
    if (size <= SORTED_BY_RANK) {
      const ranks: number[] = [];
      for (const seq of clean.toUint32Array()) {
        const rank = this.#rankOf[seq] as number;
        if (descending ? rank < start : rank >= start) ranks.push(rank);
      }
      ranks.sort((a, b) => (descending ? b - a : a - b));
      return ranks.slice(0, limit);
    }
    if (size >= order.length * WALK_SHARE) {
      if (descending) {
        for (let rank = start - 1; rank >= 0 && out.length < limit; rank -= 1)
          if (clean.has(order[rank] as number)) out.push(rank);
      } else {
        for (let rank = start; rank < order.length && out.length < limit; rank += 1)
          if (clean.has(order[rank] as number)) out.push(rank);
      }
      return out;
    }
    const marks = this.#marks;
    const rankOf = this.#rankOf;
    for (const seq of clean.toUint32Array()) marks[rankOf[seq] as number] = 1;
    if (descending) {
      for (let rank = start - 1; rank >= 0 && out.length < limit; rank -= 1)
        if (marks[rank] === 1) out.push(rank);
    } else {
      for (let rank = start; rank < order.length && out.length < limit; rank += 1)
        if (marks[rank] === 1) out.push(rank);
    }
    marks.fill(0);
    return out;
  }

  /** The changed candidates after the cursor by their current key, in the direction. */
  #changedRows(
    changed: RoaringBitmap32,
    descending: boolean,
    after: OrderPosition | null,
    limit: number,
  ): OrderPosition[] {
    if (changed.isEmpty) return [];
    const sign = descending ? -1 : 1;
    const rows: OrderPosition[] = [];
    for (const seq of changed) {
      const row = { key: comparable(this.#key, this.#key.raw(seq)), seq };
      if (after !== null && (compareKeys(row.key, after.key) || seq - after.seq) * sign <= 0) continue;
      rows.push(row);
    }
    rows.sort((a, b) => (compareKeys(a.key, b.key) || a.seq - b.seq) * sign);
    return rows.slice(0, limit);
  }
}
