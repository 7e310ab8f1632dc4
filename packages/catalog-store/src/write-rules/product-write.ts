import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '../errors/request-errors.ts';
import type { ProductInput, RelatedProductInput } from '../model/product.ts';
import { assertProductInput } from '../validation/product-input.ts';

/** create: the id must be new; replace: it must exist; upsert: either. */
export type WriteMode = 'create' | 'replace' | 'upsert';

export interface WrittenProduct {
  seq: number;
  id: string;
  created: boolean;
}

/** A product input as every engine stores it: checked, its id and relation targets normalised. */
export interface PreparedProduct {
  input: ProductInput;
  /** Ids are stored lower-cased, so any casing of a UUID names the same product. */
  id: string;
  relations: RelatedProductInput[];
}

/** Relation targets are ids: stored lower-cased, as product ids are. */
function storedRelations(input: ProductInput): RelatedProductInput[] {
  return (input.relatedProducts ?? []).map((relation) => ({
    ...relation,
    productId: relation.productId.toLowerCase(),
  }));
}

/**
 * Checks an input against the contract's schema and the rules no schema states: an id is
 * generated when absent, and a product cannot relate to itself. Nothing is read from storage.
 */
export function prepareProduct(raw: ProductInput): PreparedProduct {
  const input = assertProductInput(raw);
  const id = (input.id ?? randomUUID()).toLowerCase();
  const relations = storedRelations(input);
  if (relations.some((relation) => relation.productId === id)) {
    throw new ValidationError('relatedProducts', 'a product cannot relate to itself');
  }
  return { input, id, relations };
}

/** What the write mode demands of the id, given whether a product holds it. */
export function checkWriteMode(mode: WriteMode, id: string, exists: boolean): void {
  if (mode === 'create' && exists) throw new ValidationError('id', 'a product with this id exists');
  if (mode === 'replace' && !exists) throw new NotFoundError('Product', id);
}

/** createdAt is the input's on creation (an import keeps its history), else the write's. */
export function createdAtOf(input: ProductInput, ts: number): number {
  return input.createdAt === undefined ? ts : Date.parse(input.createdAt);
}
