// One instance of a cluster called past nginx, as nginx speaks to it.
import { type Dispatcher, request } from 'undici';
import { type JsonReply, readJsonReply } from '../../support/json-reply.ts';
import type { ClusterInstance } from './cluster.ts';

/**
 * One request to `instance` itself, as nginx sends it: plain HTTP with `X-Forwarded-Proto: https`.
 * A JSON `body` or a `form` (URL-encoded) may be sent.
 */
export async function direct(
  instance: ClusterInstance,
  path: string,
  options: {
    readonly method?: Dispatcher.HttpMethod;
    readonly token?: string;
    readonly body?: unknown;
    readonly form?: Record<string, string>;
    readonly headers?: Record<string, string>;
  } = {},
): Promise<JsonReply> {
  const headers: Record<string, string> = { 'x-forwarded-proto': 'https', ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  } else if (options.form !== undefined) {
    body = new URLSearchParams(options.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  const reply = await request(`${instance.url}${path}`, {
    method: options.method ?? 'GET',
    headers,
    ...(body === undefined ? {} : { body }),
  });
  return readJsonReply(reply);
}
