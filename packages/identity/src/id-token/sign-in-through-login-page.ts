import { SignInError } from '@catalog/contracts';
import type { HttpsSession } from './https-session.ts';

const MAX_STEPS = 12;

const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The login page's form: where it posts and its CSRF token; undefined when the page is not our login page. */
export function loginForm(html: string): { action: string; csrf: string } | undefined {
  const action = /<form[^>]*\saction="([^"]+)"/.exec(html)?.[1];
  const csrf = /<input[^>]*name="csrf"[^>]*value="([^"]+)"/.exec(html)?.[1];
  return action === undefined || csrf === undefined
    ? undefined
    : { action: unescapeHtml(action), csrf: unescapeHtml(csrf) };
}

/**
 * Follows an authorization request as a browser would: redirects, the login page, the form post,
 * the provider's resume, until the redirect to `redirectUri`, whose URL (carrying the code) is
 * returned. Only the HTML form contract of our login page is assumed.
 */
export async function signInThroughLoginPage(input: {
  readonly session: HttpsSession;
  readonly authorizationUrl: string;
  readonly redirectUri: string;
  readonly email: string;
  readonly password: string;
}): Promise<URL> {
  let url = input.authorizationUrl;
  let form: URLSearchParams | undefined;
  let submitted = false;
  for (let step = 0; step < MAX_STEPS; step += 1) {
    const reply = await input.session.send(form ? 'POST' : 'GET', url, form);
    form = undefined;
    const location = reply.headers.location;
    if (reply.status >= 300 && reply.status < 400 && typeof location === 'string') {
      const next = new URL(location, url);
      if (next.href.startsWith(input.redirectUri)) return next;
      url = next.href;
      continue;
    }
    if (reply.status === 401)
      throw new SignInError('invalid-credentials', 'sign-in refused: invalid email or password');
    if (reply.status === 429)
      throw new SignInError('locked', 'sign-in refused: too many attempts, try again later');
    if (reply.status === 503)
      throw new SignInError('busy', 'sign-in refused: the token server is busy, try again in a moment');
    const found = reply.status === 200 && !submitted ? loginForm(reply.body) : undefined;
    if (found === undefined) {
      throw new SignInError(
        'protocol',
        `unexpected answer from the token server (HTTP ${reply.status}) at ${url}`,
      );
    }
    form = new URLSearchParams({ csrf: found.csrf, email: input.email, password: input.password });
    url = new URL(found.action, url).href;
    submitted = true;
  }
  throw new SignInError('protocol', 'too many redirects during sign-in');
}
