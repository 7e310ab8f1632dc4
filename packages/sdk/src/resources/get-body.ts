import { type Authorizer, type CallOptions, send, type TransportSettings } from '../http/transport.ts';
import { buildUrl } from './query.ts';

/** GETs of the resources' routes under `base`, each answered with its parsed body (`send` retries, authorises and maps errors). */
export function bodyGetter(settings: TransportSettings, base: URL, auth: Authorizer) {
  return async <T>(path: string, query: object | undefined, options: CallOptions | undefined): Promise<T> =>
    (await send<T>(settings, { method: 'GET', url: buildUrl(base, path, query), auth }, options)).body;
}
