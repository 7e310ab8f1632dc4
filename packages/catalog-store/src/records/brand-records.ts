import { randomUUID } from 'node:crypto';
import { replacingVersion } from '../audit/audit-fields.ts';
import { brandArchivedEvent, brandCreatedEvent, brandUpdatedEvent } from '../audit/brand-events.ts';
import { NotFoundError } from '../errors/request-errors.ts';
import type { AuditContext, NewAuditEvent } from '../model/audit-event.ts';
import type { Brand, BrandInput, BrandPatch } from '../model/brand.ts';
import {
  type BrandRef,
  brandClash,
  brandFor,
  brandName,
  brandNameTaken,
  brandSlugTaken,
  brandWanted,
  checkBrandSlug,
  isStoredBrand,
  type NewBrand,
  patchedBrand,
  slugCandidates,
} from '../write-rules/brand-rules.ts';
import { appendAuditEvent } from './audit-records.ts';
import { BRAND_COLUMNS, type BrandRow, toBrand } from './brand-row.ts';
import { checkVersion, type ExpectedVersion } from './expected-version.ts';
import { type RecordWork, row, run, transactionTime } from './record-work.ts';

export function* brandRow(
  column: 'id' | 'slug' | 'seq',
  value: string | number,
): RecordWork<BrandRow | undefined> {
  return yield* row<BrandRow>(`SELECT ${BRAND_COLUMNS} FROM brands WHERE ${column} = ?`, value);
}

function* brandBy(column: 'name' | 'slug', value: string): RecordWork<BrandRef | undefined> {
  return yield* row<BrandRef>(`SELECT seq, name, slug FROM brands WHERE ${column} = ?`, value);
}

/**
 * Inserts a brand (brand-rules.ts); the slug is derived from the name, made unique, unless given.
 * The checks before the insert hold because the caller's write transaction keeps every other
 * writer waiting.
 */
export function* insertBrand(input: NewBrand, at: number): RecordWork<BrandRef> {
  const name = brandName(input.name);
  if ((yield* brandBy('name', name)) !== undefined) throw brandNameTaken();
  let slug = input.slug;
  if (slug === undefined) {
    for (const candidate of slugCandidates(name)) {
      if ((yield* brandBy('slug', candidate)) === undefined) {
        slug = candidate;
        break;
      }
    }
  } else {
    checkBrandSlug(slug);
    if ((yield* brandBy('slug', slug)) !== undefined) throw brandSlugTaken();
  }
  const inserted = yield* row<{ seq: number }>(
    'INSERT INTO brands (id, name, slug, archived, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING seq',
    randomUUID(),
    name,
    slug as string,
    0,
    at,
    at,
  );
  return { seq: inserted?.seq as number, name, slug: slug as string };
}

/** The brand a product names (brand-rules.ts, brandFor), created when it does not exist yet. */
export function* resolveBrand(
  brandNameInput: string | undefined,
  brandSlug: string | undefined,
  at: number,
): RecordWork<BrandRef | null> {
  const wanted = brandWanted(brandNameInput, brandSlug);
  if (wanted === null) return null;
  const bySlug = wanted.slug === '' ? undefined : yield* brandBy('slug', wanted.slug);
  const byName = bySlug !== undefined || wanted.name === '' ? undefined : yield* brandBy('name', wanted.name);
  const brand = brandFor(wanted, bySlug, byName);
  return isStoredBrand(brand) ? brand : yield* insertBrand(brand, at);
}

export function* createBrand(input: BrandInput, audit?: AuditContext): RecordWork<Brand> {
  const { seq } = yield* insertBrand(input, yield* transactionTime());
  const created = toBrand((yield* brandRow('seq', seq)) as BrandRow);
  if (audit !== undefined) yield* appendAuditEvent(brandCreatedEvent(audit, created));
  return created;
}

/** An update, with the event that records it (an archive is recorded as such, not as an update). */
function* updateBrandWith(
  id: string,
  patch: BrandPatch,
  expected: ExpectedVersion,
  event?: (before: Brand, after: Brand) => NewAuditEvent,
): RecordWork<Brand> {
  const current = yield* brandRow('id', id);
  if (current === undefined) throw new NotFoundError('Brand', id);
  checkVersion('Brand', id, current.version, expected);
  const { name, slug } = patchedBrand(current, patch);
  const clash = yield* row(
    'SELECT 1 FROM brands WHERE (name = ? OR slug = ?) AND seq <> ?',
    name,
    slug,
    current.seq,
  );
  if (clash !== undefined) throw brandClash();
  const at = yield* transactionTime();
  const archived = patch.archived ?? toBrand(current).archived;
  const written = yield* row<BrandRow>(
    `UPDATE brands SET name = ?, slug = ?, archived = ?, updated_at = ?, version = version + 1 WHERE seq = ? RETURNING ${BRAND_COLUMNS}`,
    name,
    slug,
    archived ? 1 : 0,
    at,
    current.seq,
  );
  if (name !== current.name || slug !== current.slug) {
    // brandName/brandSlug are part of every product's representation: syncers must see the change.
    yield* run(
      'UPDATE products SET brand_name = ?, brand_slug = ?, updated_at = ?, version = version + 1 WHERE brand_seq = ?',
      name,
      slug,
      at,
      current.seq,
    );
  }
  const updated = toBrand(written as BrandRow);
  if (event !== undefined)
    yield* appendAuditEvent(replacingVersion(event(toBrand(current), updated), current.version));
  return updated;
}

export function updateBrand(
  id: string,
  patch: BrandPatch,
  audit?: AuditContext,
  expected?: ExpectedVersion,
): RecordWork<Brand> {
  return updateBrandWith(
    id,
    patch,
    expected,
    audit && ((before, after) => brandUpdatedEvent(audit, before, after)),
  );
}

export function archiveBrand(
  id: string,
  audit?: AuditContext,
  expected?: ExpectedVersion,
): RecordWork<Brand> {
  return updateBrandWith(
    id,
    { archived: true },
    expected,
    audit && ((_, after) => brandArchivedEvent(audit, after)),
  );
}
