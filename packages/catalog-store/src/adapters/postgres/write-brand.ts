import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { ValidationError } from '../../errors/request-errors.ts';
import { slugify } from '../../search/slugify.ts';

export interface BrandRef {
  seq: number;
  name: string;
  slug: string;
}

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

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

async function freeSlug(client: pg.PoolClient, base: string): Promise<string> {
  const root = base === '' ? 'brand' : base;
  let candidate = root;
  for (let suffix = 2; (await brandBy(client, 'slug', candidate)) !== undefined; suffix += 1)
    candidate = `${root}-${suffix}`;
  return candidate;
}

/**
 * Inserts a brand; the slug is derived from the name (made unique) unless given. The checks before
 * the insert hold because the caller's write transaction keeps every other writer waiting.
 */
export async function insertBrand(
  client: pg.PoolClient,
  input: { name: string; slug?: string },
  ts: number,
): Promise<BrandRef> {
  const name = input.name.trim();
  if (name === '') throw new ValidationError('name', 'is required');
  if ((await brandBy(client, 'name', name)) !== undefined)
    throw new ValidationError('name', 'a brand with this name exists');
  let slug: string;
  if (input.slug === undefined) {
    slug = await freeSlug(client, slugify(name));
  } else {
    if (!SLUG_PATTERN.test(input.slug)) throw new ValidationError('slug', 'must be kebab-case');
    if ((await brandBy(client, 'slug', input.slug)) !== undefined)
      throw new ValidationError('slug', 'is taken');
    slug = input.slug;
  }
  const result = await client.query<{ seq: number }>(
    'INSERT INTO brands (id, name, slug, archived, created_at, updated_at) VALUES ($1, $2, $3, false, $4, $4) RETURNING seq',
    [randomUUID(), name, slug, ts],
  );
  return { seq: result.rows[0]?.seq as number, name, slug };
}

/**
 * The brand a product names: by slug when given, else by exact name. A brand that does not exist
 * yet is created, so an import can bring its brands along.
 */
export async function resolveBrand(
  client: pg.PoolClient,
  brandName: string | undefined,
  brandSlug: string | undefined,
  ts: number,
): Promise<BrandRef | null> {
  const name = brandName?.trim() ?? '';
  const slug = brandSlug?.trim() ?? '';
  if (slug !== '') {
    const bySlug = await brandBy(client, 'slug', slug);
    if (bySlug !== undefined) return bySlug;
    if (!SLUG_PATTERN.test(slug)) throw new ValidationError('brandSlug', 'must be kebab-case');
    const byName = name === '' ? undefined : await brandBy(client, 'name', name);
    if (byName !== undefined)
      throw new ValidationError('brandSlug', `brand "${name}" has slug "${byName.slug}"`);
    return insertBrand(client, { name: name === '' ? slug : name, slug }, ts);
  }
  if (name === '') return null;
  return (await brandBy(client, 'name', name)) ?? insertBrand(client, { name }, ts);
}
