import type { CodeLookup } from '../ports/product-store.ts';
import { identifierKey } from '../search/identifier-key.ts';

/** What `findByCodes` looks up, as stored: codes by their folded keys (none empty), barcodes as given. */
export function codeLookupKeys(lookup: CodeLookup): {
  productCodes: string[];
  erpCodes: string[];
  barcodes: string[];
} {
  const keysOf = (codes: readonly string[] | undefined) =>
    (codes ?? []).map(identifierKey).filter((key) => key !== '');
  return {
    productCodes: keysOf(lookup.productCodes),
    erpCodes: keysOf(lookup.erpCodes),
    barcodes: [...(lookup.barcodes ?? [])],
  };
}
