import { type CatalogStore, identifierKey } from '@catalog/store';

type Identifier = 'productCode' | 'erpCode' | 'barcode';
const IDENTIFIERS: readonly Identifier[] = ['productCode', 'erpCode', 'barcode'];

export interface DuplicateMatch {
  id: string;
  productCode: string;
  name: string;
  archived: boolean;
  matchedOn: Identifier[];
}

/**
 * Products that share a product code, ERP code or barcode with the candidate, compared the way the
 * identifier lookup compares them (case and accents folded), each with what it matched on.
 */
export async function findDuplicates(input: {
  readonly store: CatalogStore;
  readonly candidate: Partial<Record<Identifier, string>>;
  readonly excludeProductId?: string | undefined;
}): Promise<DuplicateMatch[]> {
  const { candidate } = input;
  const wanted = IDENTIFIERS.filter((field) => (candidate[field] ?? '') !== '');
  if (wanted.length === 0) return [];
  const products = await input.store.products.findByCodes({
    ...(candidate.productCode ? { productCodes: [candidate.productCode] } : {}),
    ...(candidate.erpCode ? { erpCodes: [candidate.erpCode] } : {}),
    ...(candidate.barcode ? { barcodes: [candidate.barcode] } : {}),
  });
  return products
    .filter((product) => product.id !== input.excludeProductId)
    .map((product) => ({
      id: product.id,
      productCode: product.productCode,
      name: product.name,
      archived: product.archived,
      matchedOn: wanted.filter(
        (field) => identifierKey(product[field]) === identifierKey(candidate[field] ?? ''),
      ),
    }))
    .filter((match) => match.matchedOn.length > 0);
}

/** Which of the given product codes already exist (the import preview). */
export async function partitionExistingCodes(input: {
  readonly store: CatalogStore;
  readonly productCodes: readonly string[];
}): Promise<{ existing: { productCode: string; id: string }[]; missing: string[] }> {
  const products = await input.store.products.findByCodes({ productCodes: [...input.productCodes] });
  const byKey = new Map(products.map((product) => [identifierKey(product.productCode), product.id]));
  const existing: { productCode: string; id: string }[] = [];
  const missing: string[] = [];
  for (const productCode of input.productCodes) {
    const id = byKey.get(identifierKey(productCode));
    if (id === undefined) missing.push(productCode);
    else existing.push({ productCode, id });
  }
  return { existing, missing };
}
