// An administrator's sign-in as the browser console makes it (authorization code + PKCE, the token
// server's login page, the code sent back to the console's callback), with each step sent straight
// to the next token-server instance in turn, past nginx, as nginx would send it: so a step never
// meets the instance that handled the step before, and the flow works only when what the steps hand
// on (the sign-in in progress, its cookies, the code) is shared.
import { createHash, randomBytes } from 'node:crypto';
import { ADMIN_CLIENT_ID } from '@catalog/contracts';
import { loginForm } from '@catalog/identity';
import { request } from 'undici';
import type { ClusterInstance } from './cluster.ts';

export interface SignInOutcome {
  /** The ID token, when the sign-in succeeded. */
  readonly idToken: string | undefined;
  /** The status of the last answer (200 for the token exchange; 401 or 429 for a refused login). */
  readonly status: number;
  /** Which instance answered each step, in order. */
  readonly steps: readonly string[];
}

const MAX_STEPS = 12;
const b64url = (bytes: Buffer) => bytes.toString('base64url');

export async function signInAcross(input: {
  /** Token-server instances, used in turn from the first. */
  readonly servers: readonly ClusterInstance[];
  /** nginx's token-server URL: the issuer, and the Host every step names. */
  readonly authUrl: string;
  /** nginx's catalog URL: the console's callback under it is a registered redirect URI. */
  readonly catalogUrl: string;
  readonly email: string;
  readonly password: string;
}): Promise<SignInOutcome> {
  const publicUrl = new URL(input.authUrl);
  const cookies = new Map<string, string>();
  const steps: string[] = [];
  const send = async (url: URL, form?: Record<string, string>) => {
    const server = input.servers[steps.length % input.servers.length] as ClusterInstance;
    steps.push(server.name);
    const headers: Record<string, string> = { host: publicUrl.host, 'x-forwarded-proto': 'https' };
    if (cookies.size > 0) headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const reply = await request(`${server.url}${url.pathname}${url.search}`, {
      method: form === undefined ? 'GET' : 'POST',
      headers,
      ...(form === undefined ? {} : { body: new URLSearchParams(form).toString() }),
    });
    const setCookie = reply.headers['set-cookie'];
    for (const line of typeof setCookie === 'string' ? [setCookie] : (setCookie ?? [])) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    const location = reply.headers.location;
    return {
      status: reply.statusCode,
      location: typeof location === 'string' ? location : undefined,
      body: await reply.body.text(),
    };
  };

  const redirectUri = `${input.catalogUrl}/console/callback`;
  const verifier = b64url(randomBytes(32));
  let url = new URL(`${input.authUrl}/oauth2/authorize`);
  url.search = new URLSearchParams({
    client_id: ADMIN_CLIENT_ID,
    response_type: 'code',
    scope: 'openid',
    redirect_uri: redirectUri,
    code_challenge: b64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
    state: b64url(randomBytes(16)),
    nonce: b64url(randomBytes(16)),
  }).toString();
  let form: Record<string, string> | undefined;
  while (steps.length < MAX_STEPS) {
    const reply = await send(url, form);
    form = undefined;
    if (reply.status >= 300 && reply.status < 400 && reply.location !== undefined) {
      const next = new URL(reply.location, url);
      if (next.href.startsWith(redirectUri)) {
        const code = next.searchParams.get('code') ?? '';
        const exchange = await send(new URL(`${input.authUrl}/oauth2/token`), {
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          redirect_uri: redirectUri,
          client_id: ADMIN_CLIENT_ID,
        });
        const idToken =
          exchange.status === 200 ? (JSON.parse(exchange.body) as { id_token: string }).id_token : undefined;
        return { idToken, status: exchange.status, steps };
      }
      url = next;
      continue;
    }
    const login = reply.status === 200 ? loginForm(reply.body) : undefined;
    if (login === undefined) return { idToken: undefined, status: reply.status, steps };
    form = { csrf: login.csrf, email: input.email, password: input.password };
    url = new URL(login.action, url);
  }
  throw new Error(`sign-in did not end within ${MAX_STEPS} steps: ${steps.join(' → ')}`);
}
