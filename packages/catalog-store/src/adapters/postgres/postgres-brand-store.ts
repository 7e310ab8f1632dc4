import type pg from 'pg';
import { brandArchivedEvent, brandCreatedEvent, brandUpdatedEvent } from '../../audit/brand-events.ts';
import { NotFoundError } from '../../errors/request-errors.ts';
import type { AuditContext, NewAuditEvent } from '../../model/audit-event.ts';
import type { Brand, BrandInput, BrandPatch, BrandWithProductCount } from '../../model/brand.ts';
import type { BrandStore } from '../../ports/brand-store.ts';
import { brandClash, patchedBrand } from '../../write-rules/brand-rules.ts';
import { toIso } from '../timestamps.ts';
import { appendAuditEvent } from './records/append-audit-event.ts';
import { inWriteTransaction } from './transaction.ts';
import { insertBrand } from './write-brand.ts';

export interface BrandRow {
  seq: number;
  id: string;
  name: string;
  slug: string;
  archived: boolean;
  created_at: number;
  updated_at: number;
}

export const BRAND_COLUMNS = 'seq, id, name, slug, archived, created_at, updated_at';

export function toBrand(row: BrandRow): Brand {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    archived: row.archived,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

async function brandRow(
  db: pg.Pool | pg.PoolClient,
  column: 'id' | 'slug' | 'seq',
  value: string | number,
): Promise<BrandRow | undefined> {
  const result = await db.query<BrandRow>(`SELECT ${BRAND_COLUMNS} FROM brands WHERE ${column} = $1`, [
    value,
  ]);
  return result.rows[0];
}

export class PostgresBrandStore implements BrandStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async list(options: { includeArchived?: boolean } = {}): Promise<Brand[]> {
    // Names in byte order, as the embedded engine sorts them, whatever the database's collation.
    const result = await this.#pool.query<BrandRow>(
      `SELECT ${BRAND_COLUMNS} FROM brands WHERE NOT archived OR $1 ORDER BY name COLLATE "C", seq`,
      [options.includeArchived === true],
    );
    return result.rows.map(toBrand);
  }

  async get(id: string): Promise<Brand | undefined> {
    const row = await brandRow(this.#pool, 'id', id);
    return row === undefined ? undefined : toBrand(row);
  }

  async getBySlug(slug: string): Promise<Brand | undefined> {
    const row = await brandRow(this.#pool, 'slug', slug);
    return row === undefined ? undefined : toBrand(row);
  }

  async create(input: BrandInput, audit?: AuditContext): Promise<Brand> {
    return inWriteTransaction(this.#pool, async (client, ts) => {
      const { seq } = await insertBrand(client, input, ts);
      const created = toBrand((await brandRow(client, 'seq', seq)) as BrandRow);
      if (audit !== undefined) await appendAuditEvent(client, brandCreatedEvent(audit, created), ts);
      return created;
    });
  }

  async update(id: string, patch: BrandPatch, audit?: AuditContext): Promise<Brand> {
    return this.#update(id, patch, audit && ((before, after) => brandUpdatedEvent(audit, before, after)));
  }

  /** An update, with the event that records it (an archive is recorded as such, not as an update). */
  #update(
    id: string,
    patch: BrandPatch,
    event?: (before: Brand, after: Brand) => NewAuditEvent,
  ): Promise<Brand> {
    return inWriteTransaction(this.#pool, async (client, ts) => {
      const current = await brandRow(client, 'id', id);
      if (current === undefined) throw new NotFoundError('Brand', id);
      const { name, slug } = patchedBrand(current, patch);
      const clash = await client.query('SELECT 1 FROM brands WHERE (name = $1 OR slug = $2) AND seq <> $3', [
        name,
        slug,
        current.seq,
      ]);
      if (clash.rowCount !== 0) throw brandClash();
      const result = await client.query<BrandRow>(
        `UPDATE brands SET name = $1, slug = $2, archived = $3, updated_at = $4 WHERE seq = $5
         RETURNING ${BRAND_COLUMNS}`,
        [name, slug, patch.archived ?? current.archived, ts, current.seq],
      );
      if (name !== current.name || slug !== current.slug) {
        // brandName/brandSlug are part of every product's representation: syncers must see the change.
        await client.query(
          'UPDATE products SET brand_name = $1, brand_slug = $2, updated_at = $3 WHERE brand_seq = $4',
          [name, slug, ts, current.seq],
        );
      }
      const updated = toBrand(result.rows[0] as BrandRow);
      if (event !== undefined) await appendAuditEvent(client, event(toBrand(current), updated), ts);
      return updated;
    });
  }

  async archive(id: string, audit?: AuditContext): Promise<Brand> {
    return this.#update(id, { archived: true }, audit && ((_, after) => brandArchivedEvent(audit, after)));
  }

  async overview(): Promise<BrandWithProductCount[]> {
    const result = await this.#pool.query<BrandRow & { product_count: number }>(
      `SELECT ${BRAND_COLUMNS}, (SELECT count(*) FROM products p WHERE p.brand_seq = b.seq) AS product_count
       FROM brands b ORDER BY name COLLATE "C", seq`,
    );
    return result.rows.map((row) => ({ brand: toBrand(row), productCount: row.product_count }));
  }
}
