import { type CatalogRequest, ServiceError, validateRequest } from '@catalog/contracts';
import type { AuditContext, Brand, CatalogStore, ExpectedVersion } from '@catalog/store';
import { apply as applyMergePatch } from 'json-merge-patch';
import { defined } from '../../http/defined.ts';
import { invalidRequest } from '../../http/validation-error.ts';
import { projectAdminBrand } from '../../projection/project-admin.ts';

type BrandBody = CatalogRequest<'updateBrand'>['body'];

/** PUT /brands/{id}: name and slug as sent; `archived` left out keeps the stored flag. */
export function replaceAdminBrand(input: {
  readonly store: CatalogStore;
  readonly id: string;
  readonly body: BrandBody;
  readonly expected: ExpectedVersion;
  readonly audit: AuditContext;
}): Promise<Brand> {
  const { name, slug, archived } = input.body;
  return input.store.brands.update(input.id, defined({ name, slug, archived }), input.audit, input.expected);
}

/** PATCH /brands/{id}: the merge patch applied to the brand record, checked whole as a PUT body. */
export async function patchAdminBrand(input: {
  readonly store: CatalogStore;
  readonly id: string;
  readonly patch: object;
  readonly expected: ExpectedVersion;
  readonly audit: AuditContext;
}): Promise<Brand> {
  const stored = await input.store.brands.get(input.id);
  if (stored === undefined) throw new ServiceError(404, 'NOT_FOUND', 'Brand not found');
  const patched = applyMergePatch(projectAdminBrand(stored), input.patch);
  const result = validateRequest('updateBrand', { params: { id: input.id }, body: patched });
  if (!result.ok) throw invalidRequest(result.issues);
  return replaceAdminBrand({ ...input, body: result.value.body, expected: input.expected ?? stored.version });
}
