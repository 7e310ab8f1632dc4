import type { DatabaseSync } from 'node:sqlite';
import { brandArchivedEvent, brandCreatedEvent, brandUpdatedEvent } from '../../audit/brand-events.ts';
import { NotFoundError } from '../../errors/request-errors.ts';
import type { AuditContext, NewAuditEvent } from '../../model/audit-event.ts';
import type { Brand, BrandInput, BrandPatch, BrandWithProductCount } from '../../model/brand.ts';
import type { BrandStore } from '../../ports/brand-store.ts';
import { brandClash, patchedBrand } from '../../write-rules/brand-rules.ts';
import { type BrandRow, toBrand } from './brand-row.ts';
import { appendAuditEvent } from './records/append-audit-event.ts';
import { statement } from './statement-cache.ts';

import { inWriteTransaction, transactionTime } from './transaction.ts';
import { insertBrand } from './write-brand.ts';

export const BRAND_COLUMNS = 'seq, id, name, slug, archived, created_at, updated_at';

export class SqliteBrandStore implements BrandStore {
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  #row(column: 'id' | 'slug' | 'seq', value: string | number): BrandRow | undefined {
    return statement(this.#db, `SELECT ${BRAND_COLUMNS} FROM brands WHERE ${column} = ?`).get(value) as
      | BrandRow
      | undefined;
  }

  #existing(id: string): BrandRow {
    const row = this.#row('id', id);
    if (row === undefined) throw new NotFoundError('Brand', id);
    return row;
  }

  async list(options: { includeArchived?: boolean } = {}): Promise<Brand[]> {
    const rows = statement(
      this.#db,
      `SELECT ${BRAND_COLUMNS} FROM brands WHERE archived = 0 OR ? ORDER BY name, seq`,
    ).all(options.includeArchived === true ? 1 : 0) as unknown as BrandRow[];
    return rows.map(toBrand);
  }

  async get(id: string): Promise<Brand | undefined> {
    const row = this.#row('id', id);
    return row === undefined ? undefined : toBrand(row);
  }

  async getBySlug(slug: string): Promise<Brand | undefined> {
    const row = this.#row('slug', slug);
    return row === undefined ? undefined : toBrand(row);
  }

  async create(input: BrandInput, audit?: AuditContext): Promise<Brand> {
    return inWriteTransaction(this.#db, () => {
      const ts = transactionTime(this.#db);
      const { seq } = insertBrand(this.#db, input, ts);
      const created = toBrand(this.#row('seq', seq) as BrandRow);
      if (audit !== undefined) appendAuditEvent(this.#db, brandCreatedEvent(audit, created));
      return created;
    });
  }

  async update(id: string, patch: BrandPatch, audit?: AuditContext): Promise<Brand> {
    return this.#update(id, patch, audit && ((before, after) => brandUpdatedEvent(audit, before, after)));
  }

  /** An update, with the event that records it (an archive is recorded as such, not as an update). */
  #update(id: string, patch: BrandPatch, event?: (before: Brand, after: Brand) => NewAuditEvent): Brand {
    return inWriteTransaction(this.#db, () => {
      const current = this.#existing(id);
      const { name, slug } = patchedBrand(current, patch);
      const clash = statement(
        this.#db,
        'SELECT id FROM brands WHERE (name = ? OR slug = ?) AND seq <> ?',
      ).get(name, slug, current.seq);
      if (clash !== undefined) throw brandClash();
      const ts = transactionTime(this.#db);
      const archived = patch.archived === undefined ? current.archived : patch.archived ? 1 : 0;
      statement(
        this.#db,
        'UPDATE brands SET name = ?, slug = ?, archived = ?, updated_at = ? WHERE seq = ?',
      ).run(name, slug, archived, ts, current.seq);
      if (name !== current.name || slug !== current.slug) {
        // brandName/brandSlug are part of every product's representation: syncers must see the change.
        statement(
          this.#db,
          'UPDATE products SET brand_name = ?, brand_slug = ?, updated_at = ? WHERE brand_seq = ?',
        ).run(name, slug, ts, current.seq);
      }
      const updated = toBrand(this.#row('seq', current.seq) as BrandRow);
      if (event !== undefined) appendAuditEvent(this.#db, event(toBrand(current), updated));
      return updated;
    });
  }

  async archive(id: string, audit?: AuditContext): Promise<Brand> {
    return this.#update(id, { archived: true }, audit && ((_, after) => brandArchivedEvent(audit, after)));
  }

  async overview(): Promise<BrandWithProductCount[]> {
    const rows = statement(
      this.#db,
      `SELECT ${BRAND_COLUMNS}, (SELECT count(*) FROM products p WHERE p.brand_seq = b.seq) AS product_count
       FROM brands b ORDER BY name, seq`,
    ).all() as unknown as Array<BrandRow & { product_count: number }>;
    return rows.map((row) => ({ brand: toBrand(row), productCount: row.product_count }));
  }
}
