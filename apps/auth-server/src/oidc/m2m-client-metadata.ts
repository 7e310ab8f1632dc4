import type { AdapterPayload } from 'oidc-provider';
import type { IssuableClient } from '../ports/issuable-clients.ts';

/** Client metadata fields of ours, declared in extraClientMetadata. */
export const GRANTED_SCOPES = 'granted_scopes';
export const TOKEN_LIFETIME = 'token_lifetime_seconds';

/**
 * An M2M client as oidc-provider's Client model: client-credentials only, the stored HMAC in place of
 * the secret (compared by our compareClientSecret), granted scopes and token lifetime alongside.
 * Volatile fields (lastUsedAt, usageCount) stay out: the provider caches built clients by a hash of
 * this payload.
 */
export function m2mClientMetadata(client: IssuableClient): AdapterPayload {
  return {
    client_id: client.clientId,
    client_secret: client.secretHash,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
    [GRANTED_SCOPES]: [...client.scopes],
    [TOKEN_LIFETIME]: client.tokenLifetimeSeconds,
  };
}
