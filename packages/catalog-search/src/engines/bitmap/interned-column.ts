import { RoaringBitmap32 } from './roaring.ts';

/**
 * A column of few distinct values (brandName, category, department, subDepartment, stockType):
 * each product's value id, the values, and, when `withBitmaps`, each value's products.
 */
export class InternedColumn {
  readonly values: string[] = [];
  readonly bitmaps: RoaringBitmap32[] = [];
  readonly #ids = new Map<string, number>();
  readonly #withBitmaps: boolean;
  #bySeq = new Int32Array(1024).fill(-1);
  /** Products per value id: a facet count over the whole catalogue without touching a bitmap. */
  #counts = new Int32Array(16);

  constructor(withBitmaps: boolean) {
    this.#withBitmaps = withBitmaps;
  }

  idOf(value: string): number | undefined {
    return this.#ids.get(value);
  }

  /** The value id of `seq`, -1 for none. */
  id(seq: number): number {
    return seq < this.#bySeq.length ? (this.#bySeq[seq] as number) : -1;
  }

  value(seq: number): string {
    return this.values[this.id(seq)] ?? '';
  }

  get bySeq(): Int32Array {
    return this.#bySeq;
  }

  /** How many products hold each value id (indexes past `values.length` are 0). */
  get counts(): Int32Array {
    return this.#counts;
  }

  set(seq: number, value: string): void {
    this.delete(seq);
    let id = this.#ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.#ids.set(value, id);
      if (this.#withBitmaps) this.bitmaps.push(new RoaringBitmap32());
      if (id >= this.#counts.length) {
        const grown = new Int32Array(this.#counts.length * 2);
        grown.set(this.#counts);
        this.#counts = grown;
      }
    }
    if (seq >= this.#bySeq.length) {
      let length = this.#bySeq.length;
      while (length <= seq) length *= 2;
      const grown = new Int32Array(length).fill(-1);
      grown.set(this.#bySeq);
      this.#bySeq = grown;
    }
    this.#bySeq[seq] = id;
    this.#counts[id] = (this.#counts[id] as number) + 1;
    if (this.#withBitmaps) this.bitmaps[id]?.add(seq);
  }

  delete(seq: number): void {
    const id = this.id(seq);
    if (id < 0) return;
    if (this.#withBitmaps) this.bitmaps[id]?.delete(seq);
    this.#bySeq[seq] = -1;
    this.#counts[id] = (this.#counts[id] as number) - 1;
  }
}
