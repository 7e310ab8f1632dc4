import { API_SCOPE_PREFIX } from '@catalog/identity';
import { CLIENT_SCOPES, type ClientScope } from '@catalog/store';
import { errors } from 'oidc-provider';

const KNOWN = new Set<string>(CLIENT_SCOPES);

function refuse(description: string, scope = ''): never {
  throw new errors.InvalidScope(description, scope);
}

/**
 * Validates the `scope` of a token request against the client's granted scopes (spec 4.3, 5.2-5.3)
 * and returns the prefixed scopes the token carries. oidc-provider silently drops resource scopes it
 * does not know, so every rule is checked here: required, space-separated, each value prefixed,
 * exact case, known, and granted. Each refusal names the offending value.
 */
export function requestedScopes(scope: string | undefined, granted: readonly ClientScope[]): string[] {
  if (scope === undefined || scope === '') refuse('scope is required, for example crm-api/products.read');
  const values = scope.split(' ');
  const accepted = new Set<string>();
  for (const value of values) {
    if (value === '') refuse('scope values must be separated by single spaces');
    if (value.includes(','))
      refuse(`scope values must be separated by spaces, not commas: "${value}"`, value);
    if (!value.startsWith(API_SCOPE_PREFIX)) {
      refuse(`invalid scope "${value}": scopes carry the case-sensitive prefix ${API_SCOPE_PREFIX}`, value);
    }
    const bare = value.slice(API_SCOPE_PREFIX.length);
    if (!KNOWN.has(bare)) refuse(`invalid scope "${value}": unknown scope`, value);
    if (!granted.includes(bare as ClientScope)) {
      refuse(`invalid scope "${value}": not granted to this client`, value);
    }
    accepted.add(value);
  }
  return [...accepted];
}
