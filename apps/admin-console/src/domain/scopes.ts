// The grantable scopes and the search's sort columns, listed once and checked against the contract:
// a value added to or removed from the contract breaks the build here.
import type { GrantableScope, SortColumn } from '../api/types.ts';

type Exhaustive<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : false;

export const GRANTABLE_SCOPES = [
  'products.read',
  'products.write',
  'brands.read',
  'brands.write',
] as const satisfies readonly GrantableScope[];

export const SORT_COLUMNS = [
  'name',
  'code',
  'brand',
  'price',
  'category',
  'department',
  'subDepartment',
  'supplierCost',
  'createdAt',
  'updatedAt',
] as const satisfies readonly SortColumn[];

const everyScopeListed: Exhaustive<GrantableScope, (typeof GRANTABLE_SCOPES)[number]> = true;
const everySortColumnListed: Exhaustive<SortColumn, (typeof SORT_COLUMNS)[number]> = true;
export const CONTRACT_LISTS_COMPLETE = everyScopeListed && everySortColumnListed;

/** The token request's form of a scope: `crm-api/products.read`. */
export function tokenScope(scope: GrantableScope): string {
  return `crm-api/${scope}`;
}

export function isGrantableScope(value: string): value is GrantableScope {
  return (GRANTABLE_SCOPES as readonly string[]).includes(value);
}
