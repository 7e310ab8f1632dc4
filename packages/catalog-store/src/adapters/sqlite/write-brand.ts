import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import {
  type BrandRef,
  brandFor,
  brandName,
  brandNameTaken,
  brandSlugTaken,
  brandWanted,
  checkBrandSlug,
  isStoredBrand,
  type NewBrand,
  slugCandidates,
} from '../../write-rules/brand-rules.ts';
import { statement } from './statement-cache.ts';

function brandBy(db: DatabaseSync, column: 'name' | 'slug', value: string): BrandRef | undefined {
  return statement(db, `SELECT seq, name, slug FROM brands WHERE ${column} = ?`).get(value) as
    | BrandRef
    | undefined;
}

/** Inserts a brand (brand-rules.ts); the slug is derived from the name, made unique, unless given. */
export function insertBrand(db: DatabaseSync, input: NewBrand, ts: number): BrandRef {
  const name = brandName(input.name);
  if (brandBy(db, 'name', name) !== undefined) throw brandNameTaken();
  let slug = input.slug;
  if (slug === undefined) {
    for (const candidate of slugCandidates(name)) {
      if (brandBy(db, 'slug', candidate) === undefined) {
        slug = candidate;
        break;
      }
    }
  } else {
    checkBrandSlug(slug);
    if (brandBy(db, 'slug', slug) !== undefined) throw brandSlugTaken();
  }
  const row = statement(
    db,
    'INSERT INTO brands (id, name, slug, archived, created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?) RETURNING seq',
  ).get(randomUUID(), name, slug as string, ts, ts) as { seq: number };
  return { seq: row.seq, name, slug: slug as string };
}

/** The brand a product names (brand-rules.ts, brandFor), created when it does not exist yet. */
export function resolveBrand(
  db: DatabaseSync,
  brandNameInput: string | undefined,
  brandSlug: string | undefined,
  ts: number,
): BrandRef | null {
  const wanted = brandWanted(brandNameInput, brandSlug);
  if (wanted === null) return null;
  const bySlug = wanted.slug === '' ? undefined : brandBy(db, 'slug', wanted.slug);
  const byName = bySlug !== undefined || wanted.name === '' ? undefined : brandBy(db, 'name', wanted.name);
  const brand = brandFor(wanted, bySlug, byName);
  return isStoredBrand(brand) ? brand : insertBrand(db, brand, ts);
}
