/** Paths inside the provider (below BASE_PATH); the token path and JWKS path are contractual. */
export const OIDC_ROUTES = {
  authorization: '/oauth2/authorize',
  token: '/oauth2/token',
  jwks: '/.well-known/jwks.json',
  userinfo: '/oauth2/userinfo',
  end_session: '/oauth2/logout',
} as const;

/** Where the provider sends a browser to sign in; served by our login routes. */
export const INTERACTION_PATH = '/interaction';
