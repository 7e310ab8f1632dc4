import { ADMIN_CLI_REDIRECT_URI, ADMIN_CLIENT_ID, ADMIN_SCOPE } from '@catalog/identity';
import { type ClientMetadata, errors, type KoaContextWithOIDC } from 'oidc-provider';

/**
 * The origins a browser console runs on: those of the admin client's https:// redirect URIs (the CLI's
 * http://127.0.0.1 one is no browser's). Its token requests come from there (CORS), and the login
 * page's form may lead there (form-action: browsers apply it to the redirects after the POST).
 */
export function consoleOrigins(consoleRedirectUris: readonly string[]): string[] {
  const origins = consoleRedirectUris.flatMap((uri) => {
    const url = URL.parse(uri);
    return url?.protocol === 'https:' ? [url.origin] : [];
  });
  return [...new Set(origins)];
}

type OidcClient = NonNullable<KoaContextWithOIDC['oidc']['client']>;

/**
 * oidc-provider's `clientBasedCORS`: a cross-origin call (the token request of the authorization-code
 * flow) is allowed for the admin client only, and only from a console origin. Every other client, an
 * M2M integrator included, and every other origin is refused, as oidc-provider's default refuses
 * clients that authenticate with a secret. (Discovery and JWKS are open to every origin regardless.)
 * The refusal is a failed client authentication, the answer an unknown client id gets: oidc-provider's
 * own (invalid_request naming the client) came only for a client it had found, which told a caller
 * sending any Origin which ids exist.
 */
export function adminClientCors(
  consoleRedirectUris: readonly string[],
): (ctx: KoaContextWithOIDC, origin: string, client: OidcClient) => boolean {
  const allowed = new Set(consoleOrigins(consoleRedirectUris));
  return (_ctx, origin, client) => {
    if (client.clientId === ADMIN_CLIENT_ID && allowed.has(origin)) return true;
    throw new errors.InvalidClientAuth('origin not allowed for this client');
  };
}

/**
 * A console's other pages beside each of its `…/callback` redirect URIs (https only): the hidden
 * frame of the silent renewal comes back to `silent-callback`, the logout to `signed-out`.
 */
export function consoleSiblingUris(consoleRedirectUris: readonly string[], page: string): string[] {
  return consoleRedirectUris.flatMap((uri) => {
    const url = URL.parse(uri);
    if (url?.protocol !== 'https:' || !url.pathname.endsWith('/callback')) return [];
    return [new URL(page, url).href];
  });
}

/** A public client: no secret can be kept in a CLI or a browser, so PKCE protects the code instead. */
export function adminClientMetadata(consoleRedirectUris: readonly string[]): ClientMetadata {
  return {
    client_id: ADMIN_CLIENT_ID,
    client_name: 'Catalog admin console',
    application_type: 'web',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code'],
    response_types: ['code'],
    redirect_uris: [
      ADMIN_CLI_REDIRECT_URI,
      ...consoleRedirectUris,
      ...consoleSiblingUris(consoleRedirectUris, 'silent-callback'),
    ],
    post_logout_redirect_uris: consoleSiblingUris(consoleRedirectUris, 'signed-out'),
    scope: ADMIN_SCOPE,
    id_token_signed_response_alg: 'ES256',
  };
}
