import { request } from 'node:https';

/**
 * A fetch for openid-client and jose that trusts the test's local CA (Node's fetch takes no `ca`).
 * It sends the request as given and never follows redirects.
 */
export function fetchTrusting(ca: string) {
  return async (
    url: string,
    options: { method?: string; headers?: Headers | Record<string, string>; body?: unknown },
  ) => {
    const headers = new Headers(options.headers as ConstructorParameters<typeof Headers>[0]);
    const body =
      options.body === undefined || options.body === null
        ? undefined
        : options.body instanceof URLSearchParams
          ? options.body.toString()
          : String(options.body);
    return new Promise<Response>((resolve, reject) => {
      const req = request(
        url,
        { method: options.method ?? 'GET', headers: Object.fromEntries(headers), ca, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const responseHeaders = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (value === undefined) continue;
              for (const item of Array.isArray(value) ? value : [value]) responseHeaders.append(name, item);
            }
            const status = res.statusCode ?? 0;
            const payload = status === 204 || status === 304 ? null : Buffer.concat(chunks);
            resolve(new Response(payload, { status, headers: responseHeaders }));
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
}
