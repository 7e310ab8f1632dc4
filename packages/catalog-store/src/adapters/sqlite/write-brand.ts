import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { ValidationError } from '../../errors/request-errors.ts';
import { slugify } from '../../search/slugify.ts';
import { statement } from './statement-cache.ts';

export interface BrandRef {
  seq: number;
  name: string;
  slug: string;
}

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function brandBy(db: DatabaseSync, column: 'name' | 'slug', value: string): BrandRef | undefined {
  return statement(db, `SELECT seq, name, slug FROM brands WHERE ${column} = ?`).get(value) as
    | BrandRef
    | undefined;
}

function freeSlug(db: DatabaseSync, base: string): string {
  const root = base === '' ? 'brand' : base;
  let candidate = root;
  for (let suffix = 2; brandBy(db, 'slug', candidate) !== undefined; suffix += 1)
    candidate = `${root}-${suffix}`;
  return candidate;
}

/** Inserts a brand; the slug is derived from the name (made unique) unless given. */
export function insertBrand(db: DatabaseSync, input: { name: string; slug?: string }, ts: number): BrandRef {
  const name = input.name.trim();
  if (name === '') throw new ValidationError('name', 'is required');
  if (brandBy(db, 'name', name) !== undefined)
    throw new ValidationError('name', 'a brand with this name exists');
  let slug: string;
  if (input.slug === undefined) {
    slug = freeSlug(db, slugify(name));
  } else {
    if (!SLUG_PATTERN.test(input.slug)) throw new ValidationError('slug', 'must be kebab-case');
    if (brandBy(db, 'slug', input.slug) !== undefined) throw new ValidationError('slug', 'is taken');
    slug = input.slug;
  }
  const row = statement(
    db,
    'INSERT INTO brands (id, name, slug, archived, created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?) RETURNING seq',
  ).get(randomUUID(), name, slug, ts, ts) as { seq: number };
  return { seq: row.seq, name, slug };
}

/**
 * The brand a product names: by slug when given, else by exact name. A brand that does not exist
 * yet is created, so an import can bring its brands along.
 */
export function resolveBrand(
  db: DatabaseSync,
  brandName: string | undefined,
  brandSlug: string | undefined,
  ts: number,
): BrandRef | null {
  const name = brandName?.trim() ?? '';
  const slug = brandSlug?.trim() ?? '';
  if (slug !== '') {
    const bySlug = brandBy(db, 'slug', slug);
    if (bySlug !== undefined) return bySlug;
    if (!SLUG_PATTERN.test(slug)) throw new ValidationError('brandSlug', 'must be kebab-case');
    const byName = name === '' ? undefined : brandBy(db, 'name', name);
    if (byName !== undefined)
      throw new ValidationError('brandSlug', `brand "${name}" has slug "${byName.slug}"`);
    return insertBrand(db, { name: name === '' ? slug : name, slug }, ts);
  }
  if (name === '') return null;
  return brandBy(db, 'name', name) ?? insertBrand(db, { name }, ts);
}
