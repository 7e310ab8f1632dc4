import type { Context } from 'koa';

/**
 * The base URL callers reach this deployment at: PUBLIC_CATALOG_URL when set, else the request's own
 * scheme and host (behind TRUST_PROXY, the forwarded ones) and the stage prefix.
 */
export function publicBaseUrl(
  ctx: Context,
  config: { publicUrl: string | undefined; basePath: string },
): string {
  return config.publicUrl ?? `${ctx.protocol}://${ctx.host}${config.basePath}`;
}
