// What the token server and the catalog API agree on about tokens (decisions: Identity).

/** Audience of every M2M access token: the catalog API as a resource server. */
export const ACCESS_TOKEN_AUDIENCE = 'crm-api';

/** Header `typ` of an access token (RFC 9068); ID tokens never carry it. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';

/** The registered client of the admin console and CLI: the audience of administrators' ID tokens. */
export const ADMIN_CLIENT_ID = 'catalog-admin';

/** The group an administrator's ID token must list to use the admin routes. */
export const ADMIN_GROUP = 'admin';

/** Tokens are signed with this algorithm only. */
export const TOKEN_SIGNING_ALGORITHM = 'ES256';
