// Authorization code + PKCE (S256) against the token server. The verifier, state, nonce and the page
// to return to survive the full-page redirect in sessionStorage, and are deleted as soon as the
// callback has read them. The ID token itself is never stored.
import { SignInError } from '@catalog/contracts/sign-in-error';
import type { ConsoleConfig } from '../config.ts';
import { decodeIdTokenPayload, type IdTokenClaims } from './id-token.ts';
import { createPkcePair, randomBase64Url } from './pkce.ts';

const PENDING_KEY = 'catalog-admin-console:pending-sign-in';

interface PendingSignIn {
  readonly verifier: string;
  readonly state: string;
  readonly nonce: string;
  readonly returnTo: string;
}

export function redirectUri(): string {
  return new URL('callback', document.baseURI).href;
}

export function buildAuthorizationUrl(
  config: ConsoleConfig,
  params: {
    challenge: string;
    state: string;
    nonce: string;
    redirectUri: string;
    /** 'login' asks for the password again; 'none' must not show any page (silent renewal). */
    prompt: 'login' | 'none' | null;
  },
): string {
  const url = new URL(config.authorizationEndpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('redirect_uri', params.redirectUri);
  url.searchParams.set('scope', 'openid');
  url.searchParams.set('state', params.state);
  url.searchParams.set('nonce', params.nonce);
  url.searchParams.set('code_challenge', params.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  if (params.prompt !== null) url.searchParams.set('prompt', params.prompt);
  return url.href;
}

/** Sends the browser to the token server's sign-in page. */
export async function beginSignIn(
  config: ConsoleConfig,
  options: { returnTo: string; promptLogin: boolean },
): Promise<void> {
  const { verifier, challenge } = await createPkcePair();
  const pending: PendingSignIn = {
    verifier,
    state: randomBase64Url(16),
    nonce: randomBase64Url(16),
    returnTo: options.returnTo,
  };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  location.assign(
    buildAuthorizationUrl(config, {
      challenge,
      state: pending.state,
      nonce: pending.nonce,
      redirectUri: redirectUri(),
      prompt: options.promptLogin ? 'login' : null,
    }),
  );
}

function takePending(): PendingSignIn | null {
  const raw = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as Partial<PendingSignIn>;
    if (
      typeof value.verifier === 'string' &&
      typeof value.state === 'string' &&
      typeof value.nonce === 'string' &&
      typeof value.returnTo === 'string'
    )
      return value as PendingSignIn;
  } catch {
    // fall through: treated as no sign-in in progress
  }
  return null;
}

export interface CompletedSignIn {
  readonly idToken: string;
  readonly claims: IdTokenClaims;
  readonly returnTo: string;
}

/** Handles `<base>callback?code=…&state=…`: checks state, exchanges the code, checks the nonce. */
export async function completeSignIn(config: ConsoleConfig, callbackUrl: URL): Promise<CompletedSignIn> {
  const pending = takePending();
  const params = callbackUrl.searchParams;
  const error = params.get('error');
  if (error !== null) {
    const description = params.get('error_description');
    throw new SignInError('refused', `Sign-in was not completed: ${description ?? error}.`);
  }
  if (pending === null)
    throw new SignInError('protocol', 'No sign-in was in progress in this tab. Please sign in again.');
  const code = params.get('code');
  if (code === null || params.get('state') !== pending.state)
    throw new SignInError(
      'protocol',
      'The sign-in answer did not match this tab’s request. Please sign in again.',
    );

  const { idToken, claims } = await exchangeCode(config, {
    code,
    verifier: pending.verifier,
    nonce: pending.nonce,
    redirectUri: redirectUri(),
  });
  return { idToken, claims, returnTo: pending.returnTo };
}

/** Posts the code and its verifier to the token endpoint; the ID token, checked for the nonce sent. */
export async function exchangeCode(
  config: ConsoleConfig,
  request: { code: string; verifier: string; nonce: string; redirectUri: string },
): Promise<{ idToken: string; claims: IdTokenClaims }> {
  let response: Response;
  try {
    response = await fetch(config.tokenEndpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: request.code,
        redirect_uri: request.redirectUri,
        client_id: config.clientId,
        code_verifier: request.verifier,
      }),
    });
  } catch {
    throw new SignInError('unreachable', 'The token server could not be reached. Please try again.');
  }
  const body: unknown = await response.json().catch(() => null);
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (!response.ok) {
    const description = typeof record.error_description === 'string' ? record.error_description : null;
    throw new SignInError(
      'refused',
      `The token server refused the sign-in${description ? `: ${description}` : ''}.`,
    );
  }
  const idToken = record.id_token;
  if (typeof idToken !== 'string') throw new SignInError('protocol', 'The token server sent no ID token.');
  const claims = decodeIdTokenPayload(idToken);
  if (claims.nonce !== request.nonce)
    throw new SignInError('protocol', 'The ID token was not issued for this sign-in.');
  return { idToken, claims };
}
