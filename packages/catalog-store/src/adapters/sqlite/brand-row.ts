import type { Brand } from '../../model/brand.ts';
import { toIso } from '../timestamps.ts';

export interface BrandRow {
  seq: number;
  id: string;
  name: string;
  slug: string;
  archived: number;
  created_at: number;
  updated_at: number;
}

export function toBrand(row: BrandRow): Brand {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    archived: row.archived === 1,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}
