// Renews the ID token without leaving the page: an authorization request with prompt=none in a hidden
// iframe. The token server redirects the frame to `<base>silent-callback` on this origin, a page
// with no script that this window reads (same origin); the page itself never reloads, so nothing
// typed is lost. Needs the token server's session cookie in the frame: where the browser withholds
// it (console and token server on different sites, third-party cookies blocked) the answer is
// login_required and the console shows the Sign in page, as without renewal.
import type { ConsoleConfig } from '../config.ts';
import type { IdTokenClaims } from './id-token.ts';
import { createPkcePair, randomBase64Url } from './pkce.ts';
import { buildAuthorizationUrl, exchangeCode } from './sign-in.ts';
import { readSilentAnswer } from './silent-answer.ts';

export type SilentSignIn =
  | { readonly kind: 'signed-in'; readonly idToken: string; readonly claims: IdTokenClaims }
  | { readonly kind: 'sign-in-required' }
  | { readonly kind: 'failed'; readonly reason: string };

/** Far beyond a redirect between two servers; only a token server that never answers reaches it. */
const FRAME_TIMEOUT_MS = 30_000;

export function silentRedirectUri(): string {
  return new URL('silent-callback', document.baseURI).href;
}

/** The URL the frame ends on, once it has loaded a document other than the initial blank one. */
function frameAnswer(url: string): Promise<URL> {
  return new Promise((resolve, reject) => {
    const frame = document.createElement('iframe');
    frame.hidden = true;
    frame.title = 'Session renewal';
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      frame.remove();
      outcome();
    };
    const timer = setTimeout(
      () => finish(() => reject(new Error('the token server did not answer'))),
      FRAME_TIMEOUT_MS,
    );
    frame.addEventListener('load', () => {
      let href: string;
      try {
        href = frame.contentWindow?.location.href ?? '';
      } catch {
        // Still on another origin: the token server showed a page (an error) instead of redirecting.
        finish(() => reject(new Error('the token server showed a page')));
        return;
      }
      if (href === '' || href === 'about:blank') return;
      finish(() => resolve(new URL(href)));
    });
    frame.src = url;
    document.body.append(frame);
  });
}

export async function silentSignIn(config: ConsoleConfig): Promise<SilentSignIn> {
  try {
    const { verifier, challenge } = await createPkcePair();
    const state = randomBase64Url(16);
    const nonce = randomBase64Url(16);
    const redirectUri = silentRedirectUri();
    const answer = readSilentAnswer(
      await frameAnswer(
        buildAuthorizationUrl(config, { challenge, state, nonce, redirectUri, prompt: 'none' }),
      ),
      state,
    );
    if (answer.kind !== 'code') return answer;
    const { idToken, claims } = await exchangeCode(config, {
      code: answer.code,
      verifier,
      nonce,
      redirectUri,
    });
    return { kind: 'signed-in', idToken, claims };
  } catch (error) {
    return { kind: 'failed', reason: error instanceof Error ? error.message : 'the renewal failed' };
  }
}
