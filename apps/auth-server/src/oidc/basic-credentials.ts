/**
 * The two halves of an HTTP Basic `Authorization` header, as sent (not URL-decoded), or undefined
 * when the header is not Basic credentials. RFC 6749 §2.3.1 form-encodes each half; callers decode
 * what they compare.
 */
export function basicCredentials(header: string): { id: string; secret: string } | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(header);
  if (match?.[1] === undefined) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}
