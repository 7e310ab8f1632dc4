/** The text columns of a product, in the order its tokens are kept. */
export const TEXT_COLUMNS = ['name', 'description', 'productCode', 'erpCode'] as const;
const HEADER = TEXT_COLUMNS.length;

/** One product's tokens: each column's token ids in order (`column(i)`), for phrases and removal. */
export interface ProductTokenView {
  column(index: number): Int32Array;
  /** Every column's token ids, in order, repeats included. */
  all(): Int32Array;
}

/**
 * Each product's token ids, column by column and in order, in one growing Int32Array: what a
 * multi-token term is checked against (its tokens in a row within one column, as FTS5's phrase)
 * and what the posting lists are cleared of when the product changes. A product's earlier
 * segment becomes garbage, reclaimed once it is half of the array.
 */
export class ProductTokens {
  #data = new Int32Array(1 << 16);
  #used = 0;
  #garbage = 0;
  /** Start of each seq's segment, -1 for none. */
  #start = new Float64Array(1024).fill(-1);

  set(seq: number, columns: readonly (readonly number[])[]): void {
    this.delete(seq);
    const length = HEADER + columns.reduce((n, column) => n + column.length, 0);
    this.#reserve(length);
    const data = this.#data;
    let at = this.#used;
    if (seq >= this.#start.length) this.#start = grownFloat64(this.#start, seq);
    this.#start[seq] = at;
    for (const column of columns) data[at++] = column.length;
    for (const column of columns) for (const id of column) data[at++] = id;
    this.#used = at;
  }

  delete(seq: number): void {
    const start = seq < this.#start.length ? (this.#start[seq] as number) : -1;
    if (start < 0) return;
    this.#garbage += this.#length(start);
    this.#start[seq] = -1;
  }

  get(seq: number): ProductTokenView | undefined {
    const start = seq < this.#start.length ? (this.#start[seq] as number) : -1;
    if (start < 0) return undefined;
    const data = this.#data;
    return {
      column: (index) => {
        let from = start + HEADER;
        for (let i = 0; i < index; i += 1) from += data[start + i] as number;
        return data.subarray(from, from + (data[start + index] as number));
      },
      all: () => data.subarray(start + HEADER, start + this.#length(start)),
    };
  }

  /** Gives back the arena's unused end (after a bulk load). */
  shrink(): void {
    if (this.#garbage * 2 > this.#used) this.#compact();
    this.#data = this.#data.slice(0, this.#used);
  }

  #length(start: number): number {
    let length = HEADER;
    for (let i = 0; i < HEADER; i += 1) length += this.#data[start + i] as number;
    return length;
  }

  #reserve(length: number): void {
    if (this.#used + length <= this.#data.length) return;
    if (this.#garbage * 2 > this.#used) this.#compact();
    if (this.#used + length <= this.#data.length) return;
    // A quarter more at a time: at 1M products the arena is some 100 MB, and doubling it on the
    // first write after a load would reserve as much again.
    const size = Math.max(this.#used + length, Math.ceil(this.#data.length * 1.25));
    const grown = new Int32Array(size);
    grown.set(this.#data.subarray(0, this.#used));
    this.#data = grown;
  }

  #compact(): void {
    const compacted = new Int32Array(this.#data.length);
    let at = 0;
    for (let seq = 0; seq < this.#start.length; seq += 1) {
      const start = this.#start[seq] as number;
      if (start < 0) continue;
      const length = this.#length(start);
      compacted.set(this.#data.subarray(start, start + length), at);
      this.#start[seq] = at;
      at += length;
    }
    this.#data = compacted;
    this.#used = at;
    this.#garbage = 0;
  }
}

export function grownFloat64(array: Float64Array, index: number, fill = -1): Float64Array<ArrayBuffer> {
  let length = array.length;
  while (length <= index) length *= 2;
  const copy = new Float64Array(length).fill(fill);
  copy.set(array);
  return copy;
}
