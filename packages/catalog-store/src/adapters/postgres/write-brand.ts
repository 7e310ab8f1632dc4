import { randomUUID } from 'node:crypto';
import type pg from 'pg';
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

async function brandBy(
  client: pg.PoolClient,
  column: 'name' | 'slug',
  value: string,
): Promise<BrandRef | undefined> {
  const result = await client.query<BrandRef>(`SELECT seq, name, slug FROM brands WHERE ${column} = $1`, [
    value,
  ]);
  return result.rows[0];
}

/**
 * Inserts a brand (brand-rules.ts); the slug is derived from the name, made unique, unless given.
 * The checks before the insert hold because the caller's write transaction keeps every other
 * writer waiting.
 */
export async function insertBrand(client: pg.PoolClient, input: NewBrand, ts: number): Promise<BrandRef> {
  const name = brandName(input.name);
  if ((await brandBy(client, 'name', name)) !== undefined) throw brandNameTaken();
  let slug = input.slug;
  if (slug === undefined) {
    for (const candidate of slugCandidates(name)) {
      if ((await brandBy(client, 'slug', candidate)) === undefined) {
        slug = candidate;
        break;
      }
    }
  } else {
    checkBrandSlug(slug);
    if ((await brandBy(client, 'slug', slug)) !== undefined) throw brandSlugTaken();
  }
  const result = await client.query<{ seq: number }>(
    'INSERT INTO brands (id, name, slug, archived, created_at, updated_at) VALUES ($1, $2, $3, false, $4, $4) RETURNING seq',
    [randomUUID(), name, slug, ts],
  );
  return { seq: result.rows[0]?.seq as number, name, slug: slug as string };
}

/** The brand a product names (brand-rules.ts, brandFor), created when it does not exist yet. */
export async function resolveBrand(
  client: pg.PoolClient,
  brandNameInput: string | undefined,
  brandSlug: string | undefined,
  ts: number,
): Promise<BrandRef | null> {
  const wanted = brandWanted(brandNameInput, brandSlug);
  if (wanted === null) return null;
  const bySlug = wanted.slug === '' ? undefined : await brandBy(client, 'slug', wanted.slug);
  const byName =
    bySlug !== undefined || wanted.name === '' ? undefined : await brandBy(client, 'name', wanted.name);
  const brand = brandFor(wanted, bySlug, byName);
  return isStoredBrand(brand) ? brand : insertBrand(client, brand, ts);
}
