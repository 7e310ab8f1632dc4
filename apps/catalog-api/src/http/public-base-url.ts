import { serviceUrl } from '@catalog/server-runtime';
import type { Context } from 'koa';

/**
 * The base URL callers reach this deployment at, for the links the API hands out (the OpenAPI
 * document's server, the console URL): PUBLIC_CATALOG_URL when set, else the port this request
 * arrived on. Never the request's Host or X-Forwarded-Host.
 */
export function publicBaseUrl(
  ctx: Context,
  config: { publicUrl: string | undefined; basePath: string },
): string {
  return serviceUrl(config, ctx.req.socket.localPort ?? 0);
}
