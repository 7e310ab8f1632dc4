import type { Configuration } from 'oidc-provider';
import { escapeHtml, PAGE_HEADERS, page } from '../login/html.ts';

/** The error page a browser sees for a bad authorization request: the code and description only. */
export const renderError: NonNullable<Configuration['renderError']> = async (ctx, out) => {
  ctx.set(PAGE_HEADERS);
  ctx.type = 'html';
  ctx.body = page(
    'Sign-in error',
    `<h1>Sign-in error</h1><p class="error">${escapeHtml(String(out.error))}</p><p>${escapeHtml(String(out.error_description ?? ''))}</p>`,
  );
};
