/** Builds `base + path?query`, leaving out undefined values. */
export function buildUrl(base: URL, path: string, query: object = {}): URL {
  const url = new URL(path.replace(/^\//u, ''), base);
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
  }
  return url;
}
