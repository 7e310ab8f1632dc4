import type { Middleware } from 'koa';

interface TokenErrorBody {
  error: string;
  error_description?: string;
}

// Failures of oidc-provider's client authentication that it reports as invalid_request; for the
// contract they are all a failed authentication (no credentials, Bearer token instead of Basic...).
const CLIENT_AUTH_FAILURES = new Set([
  'no client authentication mechanism provided',
  'invalid authorization header value format',
  'client_id and client_secret in the authorization header are not properly encoded',
  'client_secret must be provided in the Authorization header',
  'client_id mismatch',
]);
const GRANT_NOT_ALLOWED = 'requested grant type is not allowed for this client';
const CLIENT_AUTH_FAILED = 'client authentication failed';

function isTokenError(body: unknown): body is TokenErrorBody {
  return typeof body === 'object' && body !== null && typeof (body as TokenErrorBody).error === 'string';
}

function contractError(body: TokenErrorBody, grantType: unknown): TokenErrorBody {
  const description = body.error_description ?? '';
  if (body.error === 'invalid_client' || CLIENT_AUTH_FAILURES.has(description)) {
    return { error: 'invalid_client', error_description: CLIENT_AUTH_FAILED };
  }
  if (description === GRANT_NOT_ALLOWED) {
    // An M2M client may only use client_credentials; a public client may not use it at all.
    return grantType === 'client_credentials'
      ? { error: 'invalid_client', error_description: CLIENT_AUTH_FAILED }
      : { error: 'unsupported_grant_type', error_description: 'grant_type must be client_credentials' };
  }
  if (body.error === 'invalid_target') return { error: 'invalid_request', error_description: description };
  return { error: body.error, error_description: description };
}

/**
 * Brings the token endpoint's errors to the contract (spec 4.3, 7.4): every refusal is a 400 with
 * exactly {error, error_description}; oidc-provider's 401 invalid_client (which cannot be configured)
 * becomes 400 without WWW-Authenticate, and one generic description covers every authentication
 * failure, so no answer (nor its Access-Control-Allow-Origin) tells whether a client exists or why it
 * failed. Added with provider.use(),
 * so it runs inside the provider around its own error handler.
 */
export function tokenEndpointErrors(tokenPath: string): Middleware {
  return async (ctx, next) => {
    // A token endpoint answers JSON (RFC 6749 5.2), whatever a caller's Accept asks for.
    if (ctx.path === tokenPath) ctx.request.headers.accept = 'application/json';
    await next();
    // 429 (a rate limit, ../limits/too-many-requests.ts) keeps its status: it is not a refusal of the credentials.
    if (ctx.path !== tokenPath || ctx.status < 400 || ctx.status >= 500 || ctx.status === 429) return;
    if (!isTokenError(ctx.body)) return;
    const grantType = (ctx as { oidc?: { body?: Record<string, unknown> } }).oidc?.body?.grant_type;
    const refusal = contractError(ctx.body, grantType);
    ctx.body = refusal;
    ctx.status = 400;
    ctx.remove('WWW-Authenticate');
    // oidc-provider allows the caller's origin before it looks the client up, and withdraws it only
    // for a client it found: a failed authentication is never a CORS allowance, whoever it names.
    if (refusal.error === 'invalid_client') ctx.remove('Access-Control-Allow-Origin');
  };
}
