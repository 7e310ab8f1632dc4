import type { Product } from '@catalog/contracts';

/** Where the CLI writes products: upsert by id, never delete (spec 4.4 steps 6–7). */
export interface ProductSink {
  upsert(products: Product[]): Promise<void>;
  /** Called after a clean pass, before the checkpoint is committed. */
  finish(): Promise<void>;
  close(): Promise<void>;
}
