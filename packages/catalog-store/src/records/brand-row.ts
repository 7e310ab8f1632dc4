import { toIso } from '../adapters/timestamps.ts';
import type { Brand } from '../model/brand.ts';

// A brands row, the same columns on both engines, as a Brand.

export interface BrandRow {
  seq: number;
  id: string;
  name: string;
  slug: string;
  /** SQLite keeps a flag as 0 or 1, PostgreSQL as a boolean. */
  archived: number | boolean;
  created_at: number;
  updated_at: number;
  version: number;
}

export const BRAND_COLUMNS = 'seq, id, name, slug, archived, created_at, updated_at, version';

export function toBrand(row: BrandRow): Brand {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    archived: row.archived === true || row.archived === 1,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    version: row.version,
  };
}
