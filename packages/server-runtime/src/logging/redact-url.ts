/**
 * Query parameters that carry credentials in OAuth 2.0 / OIDC requests (RFC 6749, 6750, 7009,
 * 7523, 7636, 8693, OIDC RP-initiated logout) or commonly elsewhere. Compared case-insensitively.
 */
const CREDENTIAL_PARAMETERS = new Set([
  'access_token',
  'actor_token',
  'api_key',
  'apikey',
  'assertion',
  'client_assertion',
  'client_secret',
  'code',
  'code_verifier',
  'id_token',
  'id_token_hint',
  'logout_token',
  'password',
  'refresh_token',
  'secret',
  'subject_token',
  'token',
]);

const REDACTED = '[redacted]';

/** The name of one `name=value` query piece, decoded as a server would read it. */
const nameOf = (piece: string) => [...new URLSearchParams(piece).keys()][0] ?? '';

/**
 * A request URL fit for the logs: the value of every credential parameter replaced by
 * `[redacted]`, everything else byte for byte (so a log line still shows what was sent).
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const pieces = url.slice(queryStart + 1).split('&');
  const redacted = pieces.map((piece) => {
    if (!CREDENTIAL_PARAMETERS.has(nameOf(piece).toLowerCase())) return piece;
    const separator = piece.indexOf('=');
    return `${separator === -1 ? piece : piece.slice(0, separator)}=${REDACTED}`;
  });
  return `${url.slice(0, queryStart + 1)}${redacted.join('&')}`;
}
