import type { Brand, ChangedRecords, ProductRecord, RelatedProduct } from '@catalog/store';

/**
 * The catalogue as the change feed delivered it, held in maps: products by id with their forward
 * relations only ("used by" entries are derived when a hit is read, as the FTS5 engine's file does).
 */
export class NaiveIndex {
  readonly products = new Map<string, ProductRecord>();
  readonly brands = new Map<string, Brand>();
  #applied = 0;

  get appliedSequence(): number {
    return this.#applied;
  }

  apply(records: ChangedRecords): void {
    for (const brand of records.brands) this.brands.set(brand.id, brand);
    for (const product of records.products) {
      const forward = product.relatedProducts.filter((entry) => entry.source !== 'reverse');
      this.products.set(product.id, { ...product, relatedProducts: forward });
    }
    this.#applied = records.through;
  }

  /** The record as read back: forward entries with their targets' codes, then "used by" entries. */
  read(product: ProductRecord): ProductRecord {
    const related: RelatedProduct[] = [];
    for (const entry of product.relatedProducts) {
      const target = this.products.get(entry.productId);
      if (target !== undefined)
        related.push({ ...entry, productCode: target.productCode, erpCode: target.erpCode });
    }
    const owners = [...this.products.values()]
      .filter((owner) => owner.relatedProducts.some((entry) => entry.productId === product.id))
      .sort((a, b) => a.seq - b.seq);
    for (const owner of owners) {
      for (const entry of owner.relatedProducts) {
        if (entry.productId !== product.id) continue;
        related.push({
          productId: owner.id,
          relationType: entry.relationType,
          qty: entry.qty,
          productCode: owner.productCode,
          erpCode: owner.erpCode,
          source: 'reverse',
        });
      }
    }
    return { ...product, relatedProducts: related };
  }
}
