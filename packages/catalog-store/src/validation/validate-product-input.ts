import { ValidationError } from '../errors/request-errors.ts';
import {
  PRODUCT_DIMENSION_FIELDS,
  PRODUCT_NULLABLE_NUMBER_FIELDS,
  PRODUCT_STATUSES,
  PRODUCT_TEXT_FIELDS,
  type ProductInput,
  RELATION_TYPES,
} from '../model/product.ts';
import { WEB_CHANNEL_SLUG_PATTERN } from '../model/web-channel.ts';
import type { Problem } from './problem.ts';

// Local rules until @catalog/contracts ships the admin-model schema validator; they follow
// decisions.md "Catalogue model" and spec 2.1.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TEXT_MAX = 20_000;
/** Set by the server or derived on read; an exported record may carry them, so they are ignored. */
const IGNORED_FIELDS = new Set(['updatedAt', 'seq']);
const KNOWN_FIELDS = new Set<string>([
  ...PRODUCT_TEXT_FIELDS,
  ...PRODUCT_NULLABLE_NUMBER_FIELDS,
  ...PRODUCT_DIMENSION_FIELDS,
  'id',
  'brandName',
  'brandSlug',
  'status',
  'archived',
  'displayOnWeb',
  'webVisibility',
  'imageUrl',
  'images',
  'documents',
  'relatedProducts',
  'spares',
  'createdAt',
]);

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isUri(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

function checkFiles(field: string, value: unknown, problems: Problem[]): void {
  if (!Array.isArray(value)) {
    problems.push({ field, reason: 'must be an array of {url, name}' });
    return;
  }
  value.forEach((file, index) => {
    if (!isObject(file) || !isUri(file.url) || typeof file.name !== 'string') {
      problems.push({ field: `${field}[${index}]`, reason: 'must be {url: absolute URI, name: string}' });
    }
  });
}

function checkRelations(record: Json, problems: Problem[]): Json[] {
  const value = record.relatedProducts;
  if (!Array.isArray(value)) {
    problems.push({ field: 'relatedProducts', reason: 'must be an array' });
    return [];
  }
  const stored: Json[] = [];
  for (const [index, entry] of value.entries()) {
    const field = `relatedProducts[${index}]`;
    if (!isObject(entry)) {
      problems.push({ field, reason: 'must be an object' });
      continue;
    }
    // Reverse entries are derived by the server; an exported record carries them, so they are dropped.
    if (entry.source === 'reverse') continue;
    if (entry.source !== undefined)
      problems.push({ field: `${field}.source`, reason: 'only "reverse" is known' });
    if (typeof entry.productId !== 'string' || !UUID.test(entry.productId)) {
      problems.push({ field: `${field}.productId`, reason: 'must be a UUID' });
    } else if (entry.productId === record.id) {
      problems.push({ field: `${field}.productId`, reason: 'a product cannot relate to itself' });
    }
    if (!RELATION_TYPES.includes(entry.relationType as never)) {
      problems.push({
        field: `${field}.relationType`,
        reason: `must be one of ${RELATION_TYPES.join(', ')}`,
      });
    }
    if (typeof entry.qty !== 'number' || !Number.isFinite(entry.qty) || entry.qty < 0) {
      problems.push({ field: `${field}.qty`, reason: 'must be a number >= 0' });
    }
    if (entry.note !== undefined && typeof entry.note !== 'string') {
      problems.push({ field: `${field}.note`, reason: 'must be a string' });
    }
    const kept: Json = { productId: entry.productId, relationType: entry.relationType, qty: entry.qty };
    if (entry.note !== undefined) kept.note = entry.note;
    stored.push(kept);
  }
  return stored;
}

function checkSpares(value: unknown, problems: Problem[]): void {
  if (!Array.isArray(value)) {
    problems.push({ field: 'spares', reason: 'must be an array of {productId, qty}' });
    return;
  }
  value.forEach((entry, index) => {
    if (
      !isObject(entry) ||
      typeof entry.productId !== 'string' ||
      !UUID.test(entry.productId) ||
      typeof entry.qty !== 'number' ||
      !Number.isFinite(entry.qty)
    ) {
      problems.push({ field: `spares[${index}]`, reason: 'must be {productId: UUID, qty: number}' });
    }
  });
}

function checkScalars(record: Json, problems: Problem[]): void {
  for (const field of PRODUCT_TEXT_FIELDS) {
    const value = record[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') problems.push({ field, reason: 'must be a string' });
    else if (value.length > TEXT_MAX)
      problems.push({ field, reason: `must be at most ${TEXT_MAX} characters` });
  }
  for (const field of ['brandName', 'brandSlug'] as const) {
    if (record[field] !== undefined && typeof record[field] !== 'string') {
      problems.push({ field, reason: 'must be a string' });
    }
  }
  for (const field of ['productCode', 'name'] as const) {
    if (typeof record[field] !== 'string' || record[field].trim() === '') {
      problems.push({ field, reason: 'is required and must be a non-empty string' });
    }
  }
  for (const field of PRODUCT_NULLABLE_NUMBER_FIELDS) {
    const value = record[field];
    if (value !== undefined && value !== null && (typeof value !== 'number' || !Number.isFinite(value))) {
      problems.push({ field, reason: 'must be a number or null' });
    }
  }
  for (const field of PRODUCT_DIMENSION_FIELDS) {
    const value = record[field];
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0)) {
      problems.push({ field, reason: 'must be a number >= 0' });
    }
  }
}

function checkFlags(record: Json, problems: Problem[]): void {
  if (record.id !== undefined && (typeof record.id !== 'string' || !UUID.test(record.id))) {
    problems.push({ field: 'id', reason: 'must be a UUID' });
  }
  if (record.status !== undefined && !PRODUCT_STATUSES.includes(record.status as never)) {
    problems.push({ field: 'status', reason: `must be one of ${PRODUCT_STATUSES.join(', ')}` });
  }
  if (record.archived !== undefined && typeof record.archived !== 'boolean') {
    problems.push({ field: 'archived', reason: 'must be a boolean' });
  }
  if (
    record.displayOnWeb !== undefined &&
    record.displayOnWeb !== null &&
    typeof record.displayOnWeb !== 'boolean'
  ) {
    problems.push({ field: 'displayOnWeb', reason: 'must be a boolean or null' });
  }
  if (record.webVisibility !== undefined) {
    if (!isObject(record.webVisibility)) {
      problems.push({ field: 'webVisibility', reason: 'must be an object of channel slug to boolean' });
    } else {
      for (const [slug, visible] of Object.entries(record.webVisibility)) {
        if (!WEB_CHANNEL_SLUG_PATTERN.test(slug) || typeof visible !== 'boolean') {
          problems.push({
            field: `webVisibility.${slug}`,
            reason: 'must map a kebab-case slug to a boolean',
          });
        }
      }
    }
  }
  if (record.imageUrl !== undefined && record.imageUrl !== null && !isUri(record.imageUrl)) {
    problems.push({ field: 'imageUrl', reason: 'must be an absolute URI or null' });
  }
  if (
    record.createdAt !== undefined &&
    (typeof record.createdAt !== 'string' || !Number.isFinite(Date.parse(record.createdAt)))
  ) {
    problems.push({ field: 'createdAt', reason: 'must be an ISO 8601 date-time' });
  }
}

export interface ProductInputCheck {
  problems: Problem[];
  /** The record with derived entries dropped, when there is no problem. */
  input?: ProductInput;
}

export function checkProductInput(value: unknown): ProductInputCheck {
  if (!isObject(value)) return { problems: [{ field: '(record)', reason: 'must be a JSON object' }] };
  const problems: Problem[] = [];
  for (const field of Object.keys(value)) {
    if (!KNOWN_FIELDS.has(field) && !IGNORED_FIELDS.has(field)) {
      problems.push({ field, reason: 'is not a field of the admin product model' });
    }
  }
  checkScalars(value, problems);
  checkFlags(value, problems);
  if (value.images !== undefined) checkFiles('images', value.images, problems);
  if (value.documents !== undefined) checkFiles('documents', value.documents, problems);
  if (value.spares !== undefined) checkSpares(value.spares, problems);
  const relatedProducts = value.relatedProducts === undefined ? undefined : checkRelations(value, problems);
  if (problems.length > 0) return { problems };
  const input: Json = {};
  for (const [field, fieldValue] of Object.entries(value))
    if (KNOWN_FIELDS.has(field)) input[field] = fieldValue;
  if (relatedProducts !== undefined) input.relatedProducts = relatedProducts;
  return { problems, input: input as unknown as ProductInput };
}

/** Throws the first problem as a ValidationError. */
export function assertProductInput(value: unknown): ProductInput {
  const { problems, input } = checkProductInput(value);
  const first = problems[0];
  if (first !== undefined || input === undefined) {
    throw new ValidationError(first?.field ?? '(record)', first?.reason ?? 'is invalid');
  }
  return input;
}
