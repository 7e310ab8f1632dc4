import type { CatalogueIndex } from './catalogue-index.ts';
import { RoaringBitmap32 } from './roaring.ts';
import { type Comparable, comparable, compareKeys, ORDER_DIFFERS, type SortKey } from './sort-keys.ts';

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

/** Ranks marked by a walk over a mid-sized candidate set; searches run one at a time, so one serves all. */
let sharedMarks = new Uint8Array(0);

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
  #changed: RoaringBitmap32;

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
    const packed = this.#packedKeys(seqs);
    packed.sort();
    const order = new Uint32Array(seqs.length);
    const maxSeq = seqs.length === 0 ? 0 : (seqs[seqs.length - 1] as number);
    const rankOf = new Int32Array(maxSeq + 1).fill(-1);
    for (let rank = 0; rank < packed.length; rank += 1) {
      const value = packed[rank] as number;
      const seq = value % TWO_32;
      order[rank] = seq;
      rankOf[seq] = rank;
    }
    this.#order = order;
    this.#rankOf = rankOf;
  }

  /**
   * Each product as (rank of its key) * 2^32 + seq, so that one numeric sort orders them by key,
   * then seq. Numeric and few-valued columns are ranked from typed arrays, with no object per
   * product: at 1M products those made some 300 MB of garbage while every order was built.
   */
  #packedKeys(seqs: Uint32Array): Float64Array {
    const packed = new Float64Array(seqs.length);
    const { numbers, interned } = this.#key;
    if (numbers !== undefined) {
      const column = numbers();
      const values = Float64Array.from(seqs, (seq) => column[seq] as number);
      const sorted = values.slice().sort();
      for (let i = 0; i < seqs.length; i += 1) {
        packed[i] = lowerBound(sorted, values[i] as number) * TWO_32 + (seqs[i] as number);
      }
      return packed;
    }
    if (interned !== undefined) {
      const folded = interned.values.map((value) => comparable(this.#key, value) as string);
      const keys = sortedKeys(new Set(folded)) as string[];
      const rankOfKey = new Map(keys.map((key, rank) => [key, rank]));
      const rankOfValue = Int32Array.from(folded, (key) => rankOfKey.get(key) as number);
      for (let i = 0; i < seqs.length; i += 1) {
        const seq = seqs[i] as number;
        packed[i] = (rankOfValue[interned.id(seq)] as number) * TWO_32 + seq;
      }
      return packed;
    }
    const values = new Array<Comparable>(seqs.length);
    const distinct = new Set<Comparable>();
    for (let i = 0; i < seqs.length; i += 1) {
      const value = comparable(this.#key, this.#key.raw(seqs[i] as number));
      values[i] = value;
      distinct.add(value);
    }
    const rankOfKey = new Map<Comparable, number>(sortedKeys(distinct).map((key, rank) => [key, rank]));
    for (let i = 0; i < seqs.length; i += 1) {
      packed[i] = (rankOfKey.get(values[i] as Comparable) as number) * TWO_32 + (seqs[i] as number);
    }
    return packed;
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

  /** The key of a clean rank (its product unchanged since the build): its current key. */
  #keyOfRank(rank: number): Comparable {
    return comparable(this.#key, this.#key.raw(this.#order[rank] as number));
  }

  /**
   * The first rank for which `beyond` holds, `beyond` false then true along the clean ranks. A
   * changed product sits at its old rank with a new key: a probe landing on one reads the next
   * clean rank instead (none: beyond), which keeps the search monotonic; the ranks it passes over
   * are skipped by every walk anyway.
   */
  #firstRank(beyond: (rank: number) => boolean): number {
    const order = this.#order;
    const changed = this.#changed;
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      let clean = mid;
      while (clean < order.length && changed.has(order[clean] as number)) clean += 1;
      if (clean === order.length || beyond(clean)) hi = mid;
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
    if (sharedMarks.length < order.length) sharedMarks = new Uint8Array(order.length);
    const marks = sharedMarks;
    const rankOf = this.#rankOf;
    for (const seq of clean.toUint32Array()) marks[rankOf[seq] as number] = 1;
    if (descending) {
      for (let rank = start - 1; rank >= 0 && out.length < limit; rank -= 1)
        if (marks[rank] === 1) out.push(rank);
    } else {
      for (let rank = start; rank < order.length && out.length < limit; rank += 1)
        if (marks[rank] === 1) out.push(rank);
    }
    marks.fill(0, 0, order.length);
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

/**
 * The distinct keys ascending, by the engine's comparison but with the engines' own sorts where
 * they agree with it: numbers in a Float64Array, text by UTF-16 code units (the default sort), which
 * is UTF-8's byte order unless a key holds a surrogate or a character from U+E000 on.
 */
function sortedKeys(distinct: Set<Comparable>): Comparable[] {
  const keys = [...distinct];
  if (keys.length === 0) return keys;
  if (typeof keys[0] === 'number') return [...Float64Array.from(keys as number[]).sort()];
  const texts = keys as string[];
  return texts.some((key) => ORDER_DIFFERS.test(key)) ? texts.sort(compareKeys) : texts.sort();
}

function lowerBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
