import type { AuditContext } from '../model/audit-event.ts';
import type { Brand, BrandInput, BrandPatch, BrandWithProductCount } from '../model/brand.ts';
import type { BrandStore } from '../ports/brand-store.ts';
import { archiveBrand, brandRow, createBrand, updateBrand } from './brand-records.ts';
import { BRAND_COLUMNS, type BrandRow, toBrand } from './brand-row.ts';
import type { ExpectedVersion } from './expected-version.ts';
import type { RecordEngine } from './record-engine.ts';
import { rows } from './record-work.ts';

/** The brands on either record engine. */
export class RecordBrandStore implements BrandStore {
  readonly #engine: RecordEngine;

  constructor(engine: RecordEngine) {
    this.#engine = engine;
  }

  async list(options: { includeArchived?: boolean } = {}): Promise<Brand[]> {
    const { byteOrder } = this.#engine.dialect;
    const found = await this.#engine.direct(() =>
      rows<BrandRow>(
        `SELECT ${BRAND_COLUMNS} FROM brands WHERE archived = ? OR ? ORDER BY name${byteOrder}, seq`,
        0,
        options.includeArchived === true ? 1 : 0,
      ),
    );
    return found.map(toBrand);
  }

  async get(id: string): Promise<Brand | undefined> {
    const found = await this.#engine.direct(() => brandRow('id', id));
    return found === undefined ? undefined : toBrand(found);
  }

  async getBySlug(slug: string): Promise<Brand | undefined> {
    const found = await this.#engine.direct(() => brandRow('slug', slug));
    return found === undefined ? undefined : toBrand(found);
  }

  create(input: BrandInput, audit?: AuditContext): Promise<Brand> {
    return this.#engine.write(() => createBrand(input, audit));
  }

  update(id: string, patch: BrandPatch, audit?: AuditContext, expected?: ExpectedVersion): Promise<Brand> {
    return this.#engine.write(() => updateBrand(id, patch, audit, expected));
  }

  archive(id: string, audit?: AuditContext, expected?: ExpectedVersion): Promise<Brand> {
    return this.#engine.write(() => archiveBrand(id, audit, expected));
  }

  async overview(): Promise<BrandWithProductCount[]> {
    const { byteOrder } = this.#engine.dialect;
    const found = await this.#engine.direct(() =>
      rows<BrandRow & { product_count: number }>(
        `SELECT ${BRAND_COLUMNS}, (SELECT count(*) FROM products p WHERE p.brand_seq = b.seq) AS product_count
         FROM brands b ORDER BY name${byteOrder}, seq`,
      ),
    );
    return found.map((row) => ({ brand: toBrand(row), productCount: row.product_count }));
  }
}
