import type { ProductRecord } from './product.ts';

/**
 * The displayOnWeb value a caller sees: a bound client gets its channel's explicit value, falling
 * back to the stored default; an unbound client gets the stored default. Missing means not visible.
 */
export function displayOnWebFor(
  product: Pick<ProductRecord, 'displayOnWeb' | 'webVisibility'>,
  channel: string | null,
): boolean {
  if (channel !== null) {
    const perChannel = product.webVisibility[channel];
    if (perChannel !== undefined) return perChannel;
  }
  return product.displayOnWeb === true;
}
