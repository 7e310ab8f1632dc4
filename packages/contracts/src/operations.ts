// Every operation of the catalog API with its method, path and who may call it, read off the
// document's `security` requirements so the routes cannot drift from the contract.
import { catalogApiDocument } from './documents.ts';
import { isObject, listOperations } from './openapi-lookup.ts';
import { fromTokenScope } from './scopes.ts';
import type { CatalogOperationId, GrantableScope } from './types.ts';

export type AccessRule =
  /** No token needed (operators' health probe, the API's own documentation). */
  | { readonly kind: 'public' }
  /** An M2M token with this scope, or an administrator's ID token. */
  | { readonly kind: 'scoped'; readonly scope: GrantableScope }
  /** An administrator's ID token only; every M2M token gets 403 whatever its scopes. */
  | { readonly kind: 'admin' };

export interface CatalogOperation {
  readonly operationId: CatalogOperationId;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** The document's path template, e.g. `/products/{productId}`. */
  readonly path: string;
  readonly access: AccessRule;
}

function accessRule(security: unknown, operationId: string): AccessRule {
  if (!Array.isArray(security)) throw new Error(`${operationId} declares no security`);
  if (security.length === 0) return { kind: 'public' };
  for (const requirement of security) {
    if (!isObject(requirement) || !Array.isArray(requirement.m2mAccessToken)) continue;
    // `m2mAccessToken: []` (the /clients* routes) accepts the token only to answer 403.
    const [tokenScope] = requirement.m2mAccessToken as unknown[];
    if (tokenScope === undefined) continue;
    const scope = typeof tokenScope === 'string' ? fromTokenScope(tokenScope) : undefined;
    if (scope === undefined) throw new Error(`${operationId} names an unknown M2M scope`);
    return { kind: 'scoped', scope };
  }
  return { kind: 'admin' };
}

function readOperations(): ReadonlyMap<CatalogOperationId, CatalogOperation> {
  const operations = new Map<CatalogOperationId, CatalogOperation>();
  for (const entry of listOperations(catalogApiDocument).values()) {
    operations.set(entry.operationId as CatalogOperationId, {
      operationId: entry.operationId as CatalogOperationId,
      method: entry.method.toUpperCase() as CatalogOperation['method'],
      path: entry.path,
      access: accessRule(entry.operation.security, entry.operationId),
    });
  }
  return operations;
}

/** Every operation of the catalog API document, by operationId. */
export const CATALOG_OPERATIONS: ReadonlyMap<CatalogOperationId, CatalogOperation> = readOperations();

export function catalogOperation(operationId: CatalogOperationId): CatalogOperation {
  const operation = CATALOG_OPERATIONS.get(operationId);
  if (operation === undefined) throw new Error(`No operation ${operationId} in the catalog API document`);
  return operation;
}
