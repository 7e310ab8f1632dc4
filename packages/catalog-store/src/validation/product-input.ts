import { validateRequest } from '@catalog/contracts';
import { ValidationError } from '../errors/request-errors.ts';
import type { ProductInput, RelatedProductInput } from '../model/product.ts';
import type { Problem } from './problem.ts';

type Json = Record<string, unknown>;

/**
 * The relations to store. Reads show each entry's `productCode` and `erpCode`, and the reverse
 * ("used by") entries the server derives from other products (decisions: Catalogue model); a record
 * read back carries them, so they are dropped here, never stored (the contract marks them read-only).
 */
function storedRelations(entries: readonly Json[]): RelatedProductInput[] {
  return entries
    .filter((entry) => entry.source !== 'reverse')
    .map(
      ({ productCode: _code, erpCode: _erpCode, source: _source, ...stored }) =>
        stored as unknown as RelatedProductInput,
    );
}

/** Entries (by their index in the record sent) that relate the product to itself. */
function selfRelations(id: unknown, entries: readonly Json[]): Problem[] {
  if (typeof id !== 'string') return [];
  return entries.flatMap((entry, index) =>
    entry.source !== 'reverse' && String(entry.productId).toLowerCase() === id.toLowerCase()
      ? [{ field: `relatedProducts.${index}.productId`, reason: 'a product cannot relate to itself' }]
      : [],
  );
}

export interface ProductInputCheck {
  problems: Problem[];
  /** The record as the store takes it, when there is no problem. */
  input?: ProductInput;
}

/**
 * An admin-model product record against the contract's schema (the body of POST /products), as
 * every route checks its input, plus the rule a schema cannot state: no relation to itself. `id` and
 * `createdAt` are read-only to the API, which drops them before the store sees the record; an import
 * keeps them (the upsert key and the original creation time), checked by the same schema.
 */
export function checkProductInput(value: unknown): ProductInputCheck {
  const result = validateRequest('createProduct', { body: value });
  if (!result.ok) return { problems: result.issues.map(({ field, reason }) => ({ field, reason })) };
  const { id, createdAt } = value as Json;
  // The validator's own copy of the record (defaults applied, read-only fields removed): completed
  // in place rather than copied again, which a bulk load would pay once per product.
  const input = result.value.body as Json;
  const entries = input.relatedProducts as Json[] | undefined;
  const problems = selfRelations(id, entries ?? []);
  if (problems.length > 0) return { problems };
  if (entries !== undefined) input.relatedProducts = storedRelations(entries);
  if (id !== undefined) input.id = id;
  if (createdAt !== undefined) input.createdAt = createdAt;
  return { problems, input: input as ProductInput };
}

/** The record as the store takes it; the first problem thrown as a ValidationError. */
export function assertProductInput(value: unknown): ProductInput {
  const { problems, input } = checkProductInput(value);
  const [first] = problems;
  if (first !== undefined || input === undefined)
    throw new ValidationError(first?.field ?? 'body', first?.reason ?? 'is invalid');
  return input;
}
