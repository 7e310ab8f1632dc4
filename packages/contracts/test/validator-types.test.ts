// Type-level rules, checked by `pnpm run typecheck` (and trivially at run time).
import { describe, expectTypeOf, it } from 'vitest';
import type {
  AdminProductInput,
  CatalogApi,
  CatalogRequest,
  ErrorCode,
  GrantableScope,
  Product,
  ValidationIssue,
} from '../src/index.ts';
import { PRODUCT_FIELDS, validateRequest } from '../src/index.ts';

describe('validated request types', () => {
  it('query parameters with a default are present after validation', () => {
    type Query = CatalogRequest<'searchProducts'>['query'];
    expectTypeOf<Query['size']>().toEqualTypeOf<number>();
    expectTypeOf<Query['from']>().toEqualTypeOf<number>();
    // Any string: it is checked against SortDirection only when `sort` is present (x-consulted-schema).
    expectTypeOf<Query['order']>().toEqualTypeOf<string>();
    expectTypeOf<Query['q']>().toEqualTypeOf<string | undefined>();
  });

  it('bodies are the generated request types; read-only and ignored (server-set) fields dropped', () => {
    expectTypeOf<CatalogRequest<'createM2MClient'>['body']['scopes']>().toEqualTypeOf<GrantableScope[]>();
    expectTypeOf<CatalogRequest<'createProduct'>['body']>().toEqualTypeOf<
      Omit<CatalogApi.components['schemas']['AdminProductWrite'], 'id' | 'createdAt' | 'updatedAt'>
    >();
    expectTypeOf<AdminProductInput['id']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<AdminProductInput['productCode']>().toEqualTypeOf<string>();
    expectTypeOf<CatalogRequest<'getHealth'>['body']>().toEqualTypeOf<undefined>();
    expectTypeOf<CatalogRequest<'getProduct'>['params']>().toEqualTypeOf<{ productId: string }>();
  });

  it('issues carry contract codes; allowlists are typed by the generated schema', () => {
    const result = validateRequest('searchProducts', {});
    if (!result.ok) expectTypeOf(result.issues).toEqualTypeOf<readonly ValidationIssue<ErrorCode>[]>();
    expectTypeOf(PRODUCT_FIELDS).toEqualTypeOf<readonly (keyof Product)[]>();
    expectTypeOf<CatalogApi.components['schemas']['Product']>().toEqualTypeOf<Product>();
  });
});
