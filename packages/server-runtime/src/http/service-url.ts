/**
 * The URL a service is reached at: the configured public URL, else this machine's own listening
 * port under the name its local certificate carries. Never the caller's Host header, which anyone
 * can set (and a shared cache would then serve the forged links to others).
 */
export function serviceUrl(
  settings: { readonly publicUrl: string | undefined; readonly basePath: string },
  port: number,
): string {
  return settings.publicUrl ?? `https://localhost:${port}${settings.basePath}`;
}
