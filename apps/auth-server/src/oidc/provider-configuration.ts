import {
  ADMIN_SCOPE,
  API_AUDIENCE,
  API_RESOURCE,
  INTERACTION_PATH,
  OIDC_ROUTES,
  type ProviderJwk,
} from '@catalog/identity';
import type { ClientScope } from '@catalog/store';
import { type Configuration, errors, type JWK, type KoaContextWithOIDC } from 'oidc-provider';
import { logoutSource, postLogoutSuccessSource } from '../login/logout-page.ts';
import type { AdminAccounts } from '../ports/admin-accounts.ts';
import type { adapterFactory } from './adapter-factory.ts';
import { adminClientCors, adminClientMetadata, consoleOrigins } from './admin-client.ts';
import { findAccount } from './find-account.ts';
import { GRANTED_SCOPES, TOKEN_LIFETIME } from './m2m-client-metadata.ts';
import { renderError } from './render-error.ts';
import { requestedScopes } from './requested-scopes.ts';

export interface ProviderConfigurationInput {
  readonly basePath: string;
  readonly jwks: readonly ProviderJwk[];
  /** Signs the provider's cookies; the same on every instance and restart (cookieSigningKeys of @catalog/identity). */
  readonly cookieKeys: readonly string[];
  readonly adapter: ReturnType<typeof adapterFactory>;
  readonly accounts: AdminAccounts;
  readonly adminConsoleRedirectUris: readonly string[];
}

type OidcClient = NonNullable<KoaContextWithOIDC['oidc']['client']>;

const isM2mClient = (client: OidcClient) => Array.isArray(client[GRANTED_SCOPES]);

/**
 * oidc-provider 9 configured as ../shared/notes/oidc-provider.md describes: client-credentials JWT
 * access tokens through resource indicators, our own scope validation, per-client lifetimes, DPoP
 * off (token_type is always Bearer), EC-only keys, and authorization code + PKCE for the admin client
 * with our own login page.
 */
export function providerConfiguration(input: ProviderConfigurationInput): Configuration {
  return {
    adapter: input.adapter,
    clients: [adminClientMetadata(input.adminConsoleRedirectUris)],
    clientBasedCORS: adminClientCors(input.adminConsoleRedirectUris),
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    // No client_secret_jwt: the stored "secret" is a hash, and HS* keys would be derived from it.
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    enabledJWA: {
      idTokenSigningAlgValues: ['ES256'],
      userinfoSigningAlgValues: ['ES256'],
      authorizationSigningAlgValues: ['ES256'],
      introspectionSigningAlgValues: ['ES256'],
      requestObjectSigningAlgValues: ['ES256'],
      clientAuthSigningAlgValues: ['ES256'],
    },
    extraClientMetadata: { properties: [GRANTED_SCOPES, TOKEN_LIFETIME] },
    jwks: { keys: input.jwks.map((key) => ({ ...key }) as JWK) },
    cookies: { keys: [...input.cookieKeys] },
    routes: OIDC_ROUTES,
    scopes: [ADMIN_SCOPE],
    // The ID token is the admin credential of the catalog API, so it carries the user's groups.
    claims: { openid: ['sub', 'email', 'groups'] },
    findAccount: findAccount(input.accounts),
    interactions: {
      url: (_ctx, interaction) => `${input.basePath}${INTERACTION_PATH}/${interaction.uid}`,
    },
    pkce: { required: () => true },
    // Discovery advertises what is configured here: the admin client's code flow and client
    // credentials, nothing implicit or hybrid. No refresh tokens: the admin client is not allowed the
    // grant, so the default issueRefreshToken never issues one (a custom one would advertise the grant).
    responseTypes: ['code'],
    renderError,
    features: {
      devInteractions: { enabled: false },
      // Nothing here pushes authorization requests, and each pushed one was stored for a minute
      // outside every limit.
      pushedAuthorizationRequests: { enabled: false },
      // The console's Sign out ends the session here too (OpenID Connect RP-initiated logout). Its
      // GET stores a session for anyone who asks, so its path counts against the sign-in limit per IP.
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: logoutSource(consoleOrigins(input.adminConsoleRedirectUris)),
        postLogoutSuccessSource,
      },
      dPoP: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: false },
      revocation: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: (ctx) =>
          ctx.oidc.client && isM2mClient(ctx.oidc.client) ? API_RESOURCE : undefined,
        useGrantedResource: () => false,
        getResourceServerInfo: (ctx, resource, client) => {
          if (resource !== API_RESOURCE || !isM2mClient(client)) throw new errors.InvalidTarget();
          const granted = client[GRANTED_SCOPES] as ClientScope[];
          return {
            scope: requestedScopes(ctx.oidc.params?.scope as string | undefined, granted).join(' '),
            audience: API_AUDIENCE,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    ttl: {
      ClientCredentials: (_ctx, _token, client) => client[TOKEN_LIFETIME] as number,
      AuthorizationCode: 60,
      AccessToken: 600,
      IdToken: 3600,
      Interaction: 900,
      Session: 8 * 3600,
      Grant: 8 * 3600,
    },
  };
}
