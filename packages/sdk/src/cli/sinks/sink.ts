import type { Product } from '@catalog/contracts';

/**
 * Where the CLI writes products: upsert by id, never delete (spec 4.4 steps 6–7). A sink touches its
 * file only when the first page arrives (credentials proven) or at finish().
 */
export interface ProductSink {
  /** May buffer: the page is durable once `flush` (or `finish`) resolves. */
  upsert(products: Product[]): Promise<void>;
  /** Makes every page upserted so far durable; the sync saves a cursor only after it. */
  flush(): Promise<void>;
  /**
   * Makes the output final and consistent; called after a clean pass, before the checkpoint commits.
   * `distinctIds`: how many distinct ids the pass upserted (lets a sink skip work it knows is done).
   */
  finish(pass?: { readonly distinctIds: number }): Promise<void>;
  close(): Promise<void>;
}
