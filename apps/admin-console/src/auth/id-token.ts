// Reading an ID token's payload in the browser. No signature check here: the catalog API verifies
// the token on every call; the console only needs the claims to decide what to show.

export interface IdTokenClaims {
  readonly sub: string;
  readonly email: string;
  readonly groups: readonly string[];
  /** Unix time, seconds. */
  readonly exp: number;
  /** Unix time, seconds; null when the token does not say when it was issued. */
  readonly iat: number | null;
  readonly nonce: string | null;
}

export class IdTokenFormatError extends Error {
  override readonly name = 'IdTokenFormatError';
}

export function base64UrlDecodeToString(input: string): string {
  const base64 = input.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The claims the console uses; throws IdTokenFormatError when the token is not a JWT with them. */
export function decodeIdTokenPayload(token: string): IdTokenClaims {
  const parts = token.split('.');
  const payloadPart = parts[1];
  if (parts.length !== 3 || payloadPart === undefined || payloadPart === '')
    throw new IdTokenFormatError('The ID token is not a JWT');
  let payload: unknown;
  try {
    payload = JSON.parse(base64UrlDecodeToString(payloadPart));
  } catch {
    throw new IdTokenFormatError('The ID token payload is not base64url JSON');
  }
  if (!isRecord(payload)) throw new IdTokenFormatError('The ID token payload is not an object');
  const { sub, email, groups, exp, iat, nonce } = payload;
  if (typeof sub !== 'string') throw new IdTokenFormatError('The ID token has no sub');
  if (typeof exp !== 'number' || !Number.isFinite(exp))
    throw new IdTokenFormatError('The ID token has no exp');
  return {
    sub,
    email: typeof email === 'string' ? email : sub,
    groups: Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [],
    exp,
    iat: typeof iat === 'number' && Number.isFinite(iat) ? iat : null,
    nonce: typeof nonce === 'string' ? nonce : null,
  };
}

export function isAdmin(claims: IdTokenClaims): boolean {
  return claims.groups.includes('admin');
}

/** Milliseconds until the token expires (≤ 0 once expired). */
export function msUntilExpiry(claims: IdTokenClaims, nowMs: number): number {
  return claims.exp * 1000 - nowMs;
}

export function isExpired(claims: IdTokenClaims, nowMs: number): boolean {
  return msUntilExpiry(claims, nowMs) <= 0;
}
