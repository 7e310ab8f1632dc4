import { RoaringBitmap32 } from './roaring.ts';

/** No product: a list that was never filled, or emptied. */
const NONE = -1;

/**
 * The products of each token (by token id), as a plain number while a token has one product and as
 * a bitmap from the second on: at 1M products most tokens are product codes held by one product,
 * and a bitmap object costs some 300 bytes where a number costs none.
 */
export class PostingLists {
  readonly #lists: Array<number | RoaringBitmap32> = [];

  add(id: number, seq: number): void {
    const list = this.#lists[id] ?? NONE;
    if (typeof list !== 'number') {
      list.add(seq);
    } else if (list === NONE || list === seq) {
      this.#lists[id] = seq;
    } else {
      this.#lists[id] = new RoaringBitmap32([list, seq]);
    }
  }

  remove(id: number, seq: number): void {
    const list = this.#lists[id] ?? NONE;
    if (typeof list !== 'number') {
      list.delete(seq);
      if (list.size === 1) this.#lists[id] = list.minimum();
      else if (list.isEmpty) this.#lists[id] = NONE;
    } else if (list === seq) {
      this.#lists[id] = NONE;
    }
  }

  /** Adds the token's products to `into`. */
  orInto(into: RoaringBitmap32, id: number): void {
    const list = this.#lists[id] ?? NONE;
    if (typeof list !== 'number') into.orInPlace(list);
    else if (list !== NONE) into.add(list);
  }

  /** The token's products; the caller must not change the bitmap (it may be the list itself). */
  view(id: number): RoaringBitmap32 {
    const list = this.#lists[id] ?? NONE;
    if (typeof list !== 'number') return list;
    return list === NONE ? new RoaringBitmap32() : new RoaringBitmap32([list]);
  }

  /** Gives back what the bitmaps reserved while they grew (after a bulk load). */
  shrink(): void {
    for (const list of this.#lists) if (typeof list === 'object') list.shrinkToFit();
  }
}
