import { createHash, randomBytes } from 'node:crypto';
import { SignInError } from '@catalog/contracts';
import { decodeJwt } from 'jose';
import { ADMIN_CLI_REDIRECT_URI, ADMIN_CLIENT_ID, ADMIN_SCOPE } from '../oidc/admin-client.ts';
import { HttpsSession } from './https-session.ts';
import { signInThroughLoginPage } from './sign-in-through-login-page.ts';

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
}

const random = () => randomBytes(32).toString('base64url');

function parseJson<T>(body: string, what: string): T {
  try {
    return JSON.parse(body) as T;
  } catch {
    throw new SignInError('protocol', `the token server's ${what} is not JSON`);
  }
}

/**
 * An administrator's ID token through the same authorization-code + PKCE flow a browser console
 * uses, over HTTPS: discovery, authorization request, our login page, code exchange. The nonce and
 * state are checked, so the token is the one this flow asked for.
 */
export async function obtainAdminIdToken(input: {
  /** The token server's public URL (issuer), e.g. https://localhost:4000 */
  readonly authUrl: string;
  /** PEM of a CA to trust (the local CA's ca.pem); the system's CAs when absent. */
  readonly ca?: string | undefined;
  readonly email: string;
  readonly password: string;
}): Promise<string> {
  const session = new HttpsSession({ ca: input.ca });
  const discoveryReply = await session.send('GET', `${input.authUrl}/.well-known/openid-configuration`);
  if (discoveryReply.status !== 200) {
    throw new SignInError(
      'protocol',
      `no OpenID configuration at ${input.authUrl} (HTTP ${discoveryReply.status})`,
    );
  }
  const discovery = parseJson<Discovery>(discoveryReply.body, 'discovery document');
  const verifier = random();
  const state = random();
  const nonce = random();
  const authorization = new URL(discovery.authorization_endpoint);
  authorization.search = new URLSearchParams({
    client_id: ADMIN_CLIENT_ID,
    response_type: 'code',
    scope: ADMIN_SCOPE,
    redirect_uri: ADMIN_CLI_REDIRECT_URI,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state,
    nonce,
  }).toString();
  const callback = await signInThroughLoginPage({
    session,
    authorizationUrl: authorization.href,
    redirectUri: ADMIN_CLI_REDIRECT_URI,
    email: input.email,
    password: input.password,
  });
  const error = callback.searchParams.get('error');
  if (error !== null) {
    throw new SignInError(
      'protocol',
      `authorization refused: ${error} ${callback.searchParams.get('error_description') ?? ''}`.trim(),
    );
  }
  const code = callback.searchParams.get('code');
  if (code === null || callback.searchParams.get('state') !== state) {
    throw new SignInError('protocol', 'the authorization response has no code or a foreign state');
  }
  const tokenReply = await session.send(
    'POST',
    discovery.token_endpoint,
    new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: ADMIN_CLI_REDIRECT_URI,
      client_id: ADMIN_CLIENT_ID,
      code_verifier: verifier,
    }),
  );
  const tokens = parseJson<{ id_token?: string; error?: string }>(tokenReply.body, 'token response');
  if (tokenReply.status !== 200 || typeof tokens.id_token !== 'string') {
    throw new SignInError(
      'protocol',
      `code exchange refused: ${tokens.error ?? `HTTP ${tokenReply.status}`}`,
    );
  }
  if (decodeJwt(tokens.id_token).nonce !== nonce)
    throw new SignInError('protocol', 'the ID token carries a foreign nonce');
  return tokens.id_token;
}
