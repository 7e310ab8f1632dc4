// A tiny local HTTPS stand-in for the token endpoint and GET /products/search, behind the fault proxy.
// Kept for one thing no real server can do: run on Node 20. The unit tests (test/unit) check the SDK on the
// Node the integrators run (20 on CI), and the real servers need node:sqlite (Node 22.5+). Every rule it
// serves is also tested against the real token server and API: refresh before expiry, time-outs,
// AbortSignal, Retry-After (client.real.test.ts, pacing.real.test.ts, sync.faults.test.ts).

import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureLocalTls } from '@catalog/server-runtime';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';

export interface LocalApi {
  readonly proxy: FaultProxy;
  readonly url: string;
  readonly ca: string;
  readonly counts: { token: number; search: number };
  /** Lifetime the token endpoint grants (seconds). */
  lifetime: number;
  close(): Promise<void>;
}

export async function startLocalApi(): Promise<LocalApi> {
  const dir = await mkdtemp(join(tmpdir(), 'sdk-local-'));
  const tls = await ensureLocalTls(dir);
  const counts = { token: 0, search: 0 };
  const api: { lifetime: number } = { lifetime: 3600 };
  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req-${status}` });
    response.end(JSON.stringify(body));
  };
  const respond = (request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'https://local');
      if (request.method === 'POST' && url.pathname === '/oauth2/token') {
        counts.token += 1;
        return json(response, 200, {
          access_token: `token-${counts.token}`,
          token_type: 'Bearer',
          expires_in: api.lifetime,
        });
      }
      if (!/^Bearer token-\d+$/u.test(request.headers.authorization ?? '')) {
        return json(response, 401, { message: 'Unauthorized' });
      }
      if (url.pathname === '/products/search') {
        counts.search += 1;
        return json(response, 200, {
          data: [{ id: `p-${counts.search}` }],
          pagination: {
            total: 1,
            totalIsLowerBound: false,
            from: 0,
            size: 20,
            hasMore: false,
            syncToken: null,
          },
          syncToken: null,
          meta: { queryTimeMs: 1, source: 'local' },
        });
      }
      return json(response, 404, { message: 'Not found', error: 'NOT_FOUND' });
    });
  };
  const proxy = await startFaultProxy({ tls: { key: tls.key, cert: tls.cert }, respond });
  return Object.assign(api, {
    proxy,
    url: proxy.url,
    ca: tls.ca ?? '',
    counts,
    async close() {
      await proxy.close();
      await rm(dir, { recursive: true, force: true });
    },
  });
}
