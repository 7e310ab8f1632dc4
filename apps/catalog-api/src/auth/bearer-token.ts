/**
 * The token of an `Authorization: Bearer <token>` header (spec 5.1: the scheme word is `Bearer` with
 * that capitalisation, the token is not quoted), or undefined when the header is anything else.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/.exec(header);
  return match?.[1];
}
