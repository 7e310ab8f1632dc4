import type { ProductInput } from '../model/product.ts';
import { type PreparedProduct, prepareProduct } from './product-write.ts';

/** A batch of inputs, every one prepared (product-write.ts) before any is written. */
export interface CheckedBatch {
  raw: readonly ProductInput[];
  products: PreparedProduct[];
}

/** One bad record fails the batch before anything of it is written. */
export function checkBatch(inputs: readonly ProductInput[]): CheckedBatch {
  return { raw: inputs, products: inputs.map(prepareProduct) };
}
