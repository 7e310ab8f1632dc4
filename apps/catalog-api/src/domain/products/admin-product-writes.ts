import {
  type CatalogRequest,
  INTERNAL_PRODUCT_FIELDS,
  ServiceError,
  validateRequest,
} from '@catalog/contracts';
import type {
  AuditContext,
  CatalogStore,
  ExpectedVersion,
  ProductInput,
  ProductRecord,
} from '@catalog/store';
import { apply as applyMergePatch } from 'json-merge-patch';
import { invalidRequest } from '../../http/validation-error.ts';
import { projectAdminProduct } from '../../projection/project-admin.ts';

type ProductBody = CatalogRequest<'updateProduct'>['body'];

/** The internal fields a PUT leaves as stored when its body leaves them out (updatedAt is the server's). */
const KEPT_WHEN_UNSENT = INTERNAL_PRODUCT_FIELDS.filter((field) => field !== 'updatedAt');

async function storedProduct(store: CatalogStore, id: string): Promise<ProductRecord> {
  const product = await store.products.get(id);
  if (product === undefined) throw new ServiceError(404, 'NOT_FOUND', 'Product not found');
  return product;
}

/**
 * A PUT body over the stored record, as the contract's updateProduct says: internal fields the body
 * leaves out keep their stored values, and a relation sent without a note keeps the note stored for
 * the same related product and relation type. The integrators' representation (GET /products/{id})
 * has none of these, so sending it back loses nothing.
 */
export function keepUnsentInternalFields(body: ProductBody, stored: ProductRecord): ProductInput {
  const input: Record<string, unknown> = { ...body };
  for (const field of KEPT_WHEN_UNSENT) {
    if (input[field] === undefined) input[field] = stored[field as keyof ProductRecord];
  }
  if (body.relatedProducts !== undefined) {
    const notes = new Map(
      stored.relatedProducts
        .filter((entry) => entry.source !== 'reverse' && entry.note !== undefined)
        .map((entry) => [`${entry.productId}\u0000${entry.relationType}`, entry.note]),
    );
    input.relatedProducts = body.relatedProducts.map((entry) => {
      const note = notes.get(`${entry.productId}\u0000${entry.relationType}`);
      return entry.note !== undefined || note === undefined ? entry : { ...entry, note };
    });
  }
  return input as ProductInput;
}

/**
 * PUT /products/{id}. The write names the version the caller read (If-Match), or, for `*`, the
 * version this merge was made over: a write landing between the read here and the replace is then
 * refused (412), never overwritten with internal fields read before it.
 */
export async function replaceAdminProduct(input: {
  readonly store: CatalogStore;
  readonly id: string;
  readonly body: ProductBody;
  readonly expected: ExpectedVersion;
  readonly audit: AuditContext;
}): Promise<ProductRecord> {
  const stored = await storedProduct(input.store, input.id);
  const product = keepUnsentInternalFields(input.body, stored);
  return input.store.products.replace(input.id, product, input.audit, input.expected ?? stored.version);
}

/**
 * PATCH /products/{id}: the merge patch (RFC 7396) applied to the admin record, checked whole as a
 * PUT body would be, and written over the version it was applied to.
 */
export async function patchAdminProduct(input: {
  readonly store: CatalogStore;
  readonly id: string;
  readonly patch: object;
  readonly expected: ExpectedVersion;
  readonly audit: AuditContext;
}): Promise<ProductRecord> {
  const stored = await storedProduct(input.store, input.id);
  const patched = applyMergePatch(projectAdminProduct(stored), input.patch);
  const result = validateRequest('updateProduct', { params: { productId: input.id }, body: patched });
  if (!result.ok) throw invalidRequest(result.issues);
  return input.store.products.replace(
    input.id,
    result.value.body as ProductInput,
    input.audit,
    input.expected ?? stored.version,
  );
}
