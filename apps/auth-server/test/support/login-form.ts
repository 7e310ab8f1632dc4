import { type Agent, request } from 'node:https';
import { rawRequest } from '@catalog/server-runtime/testing';
import type { TestServer } from './test-server.ts';

/** The login page of a fresh authorization request: its cookies, form action and CSRF token. */
export interface LoginForm {
  readonly cookie: string;
  readonly action: string;
  readonly csrf: string;
  /** Sent with every request of this sign-in (a proxy's X-Forwarded-* headers). */
  readonly headers: Record<string, string>;
}

export interface LoginReply {
  readonly status: number;
  readonly retryAfter: string | undefined;
  /** The X-Request-Id the server answered with. */
  readonly requestId: string | undefined;
}

/** The console's redirect URI, registered for the catalog-admin client. */
export const ADMIN_REDIRECT_URI = 'http://127.0.0.1/callback';
/** RFC 7636's example pair: the challenge is S256 of the verifier. */
export const PKCE_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const PKCE_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** A sign-in of the admin console at the token server `baseUrl`: its authorization request. */
export function adminAuthorizeUrl(baseUrl: string): string {
  return `${baseUrl}/oauth2/authorize?${new URLSearchParams({
    client_id: 'catalog-admin',
    response_type: 'code',
    scope: 'openid',
    redirect_uri: ADMIN_REDIRECT_URI,
    code_challenge: PKCE_CHALLENGE,
    code_challenge_method: 'S256',
  })}`;
}

/** Opens the login page as a browser would, each request carrying `headers`. */
export async function openLogin(
  running: Pick<TestServer, 'url' | 'ca'>,
  headers: Record<string, string> = {},
): Promise<LoginForm> {
  const started = await rawRequest(adminAuthorizeUrl(running.url), { ca: running.ca, headers });
  const setCookie = started.headers['set-cookie'] ?? [];
  const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie])
    .map((line) => line.split(';')[0])
    .join('; ');
  const page = await rawRequest(new URL(String(started.headers.location), running.url).href, {
    ca: running.ca,
    headers: { ...headers, Cookie: cookie },
  });
  return {
    cookie,
    action: new URL(/action="([^"]+)"/.exec(page.body)?.[1] ?? '', running.url).href,
    csrf: /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '',
    headers,
  };
}

/** Posts the form with an email and password; `headers` are added to the form's own. */
export function postLogin(
  login: LoginForm,
  ca: string,
  email: string,
  password: string,
  options: { readonly agent?: Agent; readonly headers?: Record<string, string> } = {},
): Promise<LoginReply> {
  const body = new URLSearchParams({ csrf: login.csrf, email, password }).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      login.action,
      {
        method: 'POST',
        ca,
        ...(options.agent === undefined ? { agent: false } : { agent: options.agent }),
        headers: {
          ...login.headers,
          ...options.headers,
          'Content-Type': 'application/x-www-form-urlencoded',
          Cookie: login.cookie,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          const requestId = res.headers['x-request-id'];
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'],
            requestId: Array.isArray(requestId) ? requestId[0] : requestId,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
