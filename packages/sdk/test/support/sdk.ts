// Test helpers: a client on the stack with short backoffs, and an in-memory downstream copy.
import type { Product } from '@catalog/contracts';
import { type CatalogClientOptions, createCatalogClient } from '../../src/index.ts';
import type { Stack } from './stack.ts';

/** Small backoff bases so retries stay fast in tests. */
export const FAST_RETRY = { baseMs: 5, capMs: 50, maxRetryAfterMs: 5_000 };

export async function clientFor(
  stack: Stack,
  overrides: Partial<CatalogClientOptions> = {},
): Promise<ReturnType<typeof createCatalogClient>> {
  const credentials = await stack.credentials();
  return createCatalogClient({
    baseUrl: stack.baseUrl,
    authUrl: stack.authUrl,
    ...credentials,
    ca: stack.ca,
    retry: FAST_RETRY,
    pacing: false,
    ...overrides,
  });
}

/** A downstream copy keyed by id (spec 4.4 step 6). */
export function memorySink(): { rows: Map<string, Product>; upsert: (products: Product[]) => void } {
  const rows = new Map<string, Product>();
  return {
    rows,
    upsert(products) {
      for (const product of products) rows.set(product.id, product);
    },
  };
}
