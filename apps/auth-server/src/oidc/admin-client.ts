import type { ClientMetadata } from 'oidc-provider';

/**
 * The registered client of the admin console and the operator CLI. ID tokens issued to it have this
 * audience, which is how the catalog API recognises an administrator's token (decisions: Identity).
 */
export const ADMIN_CLIENT_ID = 'catalog-admin';

/**
 * The CLI's redirect URI. The CLI never listens there: it drives the flow itself and reads the code
 * from the redirect's Location header. A browser console adds its own https:// URIs
 * (ADMIN_CONSOLE_REDIRECT_URIS).
 */
export const ADMIN_CLI_REDIRECT_URI = 'http://127.0.0.1/callback';

export const ADMIN_SCOPE = 'openid';

/** A public client: no secret can be kept in a CLI or a browser, so PKCE protects the code instead. */
export function adminClientMetadata(consoleRedirectUris: readonly string[]): ClientMetadata {
  return {
    client_id: ADMIN_CLIENT_ID,
    client_name: 'Catalog admin console',
    application_type: 'web',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code'],
    response_types: ['code'],
    redirect_uris: [ADMIN_CLI_REDIRECT_URI, ...consoleRedirectUris],
    scope: ADMIN_SCOPE,
    id_token_signed_response_alg: 'ES256',
  };
}
