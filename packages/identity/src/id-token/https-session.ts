import { request } from 'node:https';

export interface HttpsReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * What a browser does for a sign-in, reduced: HTTPS trusting the given CA, no automatic redirects,
 * and a cookie jar keyed by name (one server, one flow at a time).
 */
export class HttpsSession {
  readonly #ca: string | undefined;
  readonly #cookies = new Map<string, string>();

  constructor(options: { readonly ca?: string | undefined } = {}) {
    this.#ca = options.ca;
  }

  #remember(setCookie: string[] | undefined): void {
    for (const line of setCookie ?? []) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', raw = ''] = attribute.trim().split('=');
        const lower = key.toLowerCase();
        return (
          (lower === 'max-age' && Number(raw) <= 0) || (lower === 'expires' && Date.parse(raw) < Date.now())
        );
      });
      if (expired || value === '') this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  send(method: 'GET' | 'POST', url: string, form?: URLSearchParams): Promise<HttpsReply> {
    const target = new URL(url);
    if (target.protocol !== 'https:') return Promise.reject(new Error(`refusing a non-https URL: ${url}`));
    const body = form?.toString();
    const headers: Record<string, string> = { Accept: 'text/html,application/json' };
    if (this.#cookies.size > 0) {
      headers.Cookie = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    if (body !== undefined) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    return new Promise((resolve, reject) => {
      const req = request(target, { method, headers, ...(this.#ca ? { ca: this.#ca } : {}) }, (res) => {
        this.#remember(res.headers['set-cookie']);
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }
}
