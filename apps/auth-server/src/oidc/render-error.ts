import type { Configuration } from 'oidc-provider';
import { SignInStoreUnavailable } from '../errors/sign-in-store-unavailable.ts';
import { answerSignInUnavailable } from '../limits/too-many-requests.ts';
import { escapeHtml, PAGE_HEADERS, page } from '../login/html.ts';

/**
 * The error page a browser sees for a bad authorization request: the code and description only.
 * The sign-in store unable to answer gets the same 503 page as our own sign-in routes give.
 */
export const renderError: NonNullable<Configuration['renderError']> = async (ctx, out, error) => {
  if (error instanceof SignInStoreUnavailable) {
    answerSignInUnavailable(ctx);
    return;
  }
  ctx.set(PAGE_HEADERS);
  ctx.type = 'html';
  ctx.body = page(
    'Sign-in error',
    `<h1>Sign-in error</h1><p class="error">${escapeHtml(String(out.error))}</p><p>${escapeHtml(String(out.error_description ?? ''))}</p>`,
  );
};
