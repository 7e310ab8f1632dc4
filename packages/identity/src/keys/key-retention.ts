/** The longest access-token lifetime any client can have (legacy clients, spec 2.5). */
export const LONGEST_TOKEN_LIFETIME_SECONDS = 86_400;

/**
 * How long a resource server may keep a copy of the JWKS. jose's createRemoteJWKSet keeps one for
 * 10 minutes by default; the catalog API uses it.
 */
export const JWKS_CACHE_SECONDS = 600;

/** A retired key stays published until every token it signed has expired and every cache has refreshed. */
export const RETIRED_KEY_RETENTION_SECONDS = LONGEST_TOKEN_LIFETIME_SECONDS + JWKS_CACHE_SECONDS;

/** A staged key must be published this long before it signs, so every cache already knows it. */
export const STAGED_KEY_MIN_PUBLISH_SECONDS = JWKS_CACHE_SECONDS;
