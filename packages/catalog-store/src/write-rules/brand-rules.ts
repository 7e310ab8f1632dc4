import { ValidationError } from '../errors/request-errors.ts';
import { slugify } from '../search/slugify.ts';

/** A stored brand as a product row refers to it. */
export interface BrandRef {
  seq: number;
  name: string;
  slug: string;
}

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function checkBrandSlug(slug: string, field: 'slug' | 'brandSlug' = 'slug'): void {
  if (!SLUG_PATTERN.test(slug)) throw new ValidationError(field, 'must be kebab-case');
}

/** Names are compared and stored trimmed; an empty one is no name. */
export function brandName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new ValidationError('name', 'is required');
  return trimmed;
}

export const brandNameTaken = (): ValidationError =>
  new ValidationError('name', 'a brand with this name exists');
export const brandSlugTaken = (): ValidationError => new ValidationError('slug', 'is taken');
export const brandClash = (): ValidationError =>
  new ValidationError('name', 'another brand has this name or slug');

/** The slugs a new brand without one may take, in order of preference: its name's, then -2, -3, … */
export function* slugCandidates(name: string): Generator<string> {
  const root = slugify(name) || 'brand';
  yield root;
  for (let suffix = 2; ; suffix += 1) yield `${root}-${suffix}`;
}

/** What a product's brandName and brandSlug ask for, trimmed; null when neither is given. */
export interface BrandWanted {
  name: string;
  slug: string;
}

export function brandWanted(
  brandName: string | undefined,
  brandSlug: string | undefined,
): BrandWanted | null {
  const wanted = { name: brandName?.trim() ?? '', slug: brandSlug?.trim() ?? '' };
  return wanted.name === '' && wanted.slug === '' ? null : wanted;
}

/** A brand a product write creates: an import brings its brands along. */
export interface NewBrand {
  name: string;
  slug?: string;
}

/**
 * The brand a product names: by slug when it gives one, else by exact name; one that does not exist
 * yet is to be created. `bySlug` is the brand holding the wanted slug (looked up only when a slug
 * is given), `byName` the one holding the wanted name (looked up when no brand holds the slug).
 */
export function brandFor(
  wanted: BrandWanted,
  bySlug: BrandRef | undefined,
  byName: BrandRef | undefined,
): BrandRef | NewBrand {
  if (wanted.slug !== '') {
    if (bySlug !== undefined) return bySlug;
    checkBrandSlug(wanted.slug, 'brandSlug');
    if (byName !== undefined)
      throw new ValidationError('brandSlug', `brand "${wanted.name}" has slug "${byName.slug}"`);
    return { name: wanted.name === '' ? wanted.slug : wanted.name, slug: wanted.slug };
  }
  return byName ?? { name: wanted.name };
}

export function isStoredBrand(brand: BrandRef | NewBrand): brand is BrandRef {
  return 'seq' in brand;
}

/** A brand's name and slug after a patch, checked; the caller refuses a clash with another brand. */
export function patchedBrand(
  current: { name: string; slug: string },
  patch: { name?: string; slug?: string },
): { name: string; slug: string } {
  const name = patch.name === undefined ? current.name : brandName(patch.name);
  const slug = patch.slug ?? current.slug;
  checkBrandSlug(slug);
  return { name, slug };
}
