// Grantable scopes (client management, no prefix) and token scopes (`crm-api/` prefix), read off the document.
import { catalogApiDocument } from './documents.ts';
import { keysOf } from './openapi-lookup.ts';
import type { GrantableScope } from './types.ts';

export const TOKEN_SCOPE_PREFIX = 'crm-api/';

export type TokenScope = `${typeof TOKEN_SCOPE_PREFIX}${GrantableScope}`;

/** products.read, products.write, brands.read, brands.write. */
export const GRANTABLE_SCOPES: readonly GrantableScope[] =
  catalogApiDocument.components.schemas.GrantableScope.enum;

/** The scopes of the M2M security scheme, as the token endpoint takes them. */
export const TOKEN_SCOPES: readonly TokenScope[] = keysOf(
  catalogApiDocument.components.securitySchemes.m2mAccessToken.flows.clientCredentials.scopes,
);

export function toTokenScope(scope: GrantableScope): TokenScope {
  return `${TOKEN_SCOPE_PREFIX}${scope}`;
}

/** The grantable scope a token scope stands for; undefined for anything else (wrong prefix, case, value). */
export function fromTokenScope(scope: string): GrantableScope | undefined {
  if (!scope.startsWith(TOKEN_SCOPE_PREFIX)) return undefined;
  const bare = scope.slice(TOKEN_SCOPE_PREFIX.length);
  return GRANTABLE_SCOPES.find((grantable) => grantable === bare);
}
