import { ACCESS_TOKEN_AUDIENCE } from '@catalog/contracts';

/** The catalog API as a resource server: the audience of every access token (decisions: Identity). */
export const API_AUDIENCE = ACCESS_TOKEN_AUDIENCE;

/**
 * The resource indicator oidc-provider resolves for client-credentials requests. Integrators never
 * send it (spec 4.3 has no `resource` field); it only ties the request to the API's token format.
 */
export const API_RESOURCE = 'urn:catalog:crm-api';

/** Scopes in a token request carry this prefix, case-sensitive (spec 5.2). */
export const API_SCOPE_PREFIX = 'crm-api/';
