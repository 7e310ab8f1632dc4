import { createHash } from 'node:crypto';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { loginPageHeaders, page } from './html.ts';

// The one script of the token server's pages: it submits the logout form the console's Sign out led
// to, so that signing out is one click. Allowed by its hash, so no other inline script can run.
const SUBMIT_SCRIPT = "document.getElementById('op.logoutForm').submit();";
const SUBMIT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(SUBMIT_SCRIPT).digest('base64')}'`;

/** The hint names the account signed in here: the console of this very session asked to sign out. */
function askedByThisSession(ctx: KoaContextWithOIDC): boolean {
  const hint = ctx.oidc.entities.IdTokenHint as { payload?: { sub?: unknown } } | undefined;
  const accountId = ctx.oidc.session?.accountId;
  return accountId !== undefined && hint?.payload?.sub === accountId;
}

/**
 * oidc-provider's `logoutSource`: the form ends the whole session (`logout=yes`), then the browser
 * goes to the console's `signed-out` page (form-action allows the console origins for that
 * redirect). Asked by the session's own console (its ID token as hint) the form submits itself;
 * any other request to end the session is a page with a button, so a link elsewhere cannot sign
 * an administrator out unasked.
 */
export function logoutSource(consoleOrigins: readonly string[]) {
  const headers = loginPageHeaders(consoleOrigins);
  return async (ctx: KoaContextWithOIDC, form: string): Promise<void> => {
    const auto = askedByThisSession(ctx);
    ctx.set({
      ...headers,
      'Content-Security-Policy': `${headers['Content-Security-Policy']}${auto ? `; script-src ${SUBMIT_SCRIPT_HASH}` : ''}`,
    });
    const logoutForm = form.replace('</form>', '<input type="hidden" name="logout" value="yes"/></form>');
    ctx.type = 'html';
    ctx.body = page(
      'Sign out - Catalog admin',
      `<h1>Catalog admin</h1>
<p>${auto ? 'Signing you out…' : 'Sign out of the catalog admin console on this browser?'}</p>
${logoutForm}
<button type="submit" form="op.logoutForm">Sign out</button>${auto ? `\n<script>${SUBMIT_SCRIPT}</script>` : ''}`,
    );
  };
}

/** oidc-provider's `postLogoutSuccessSource`: the end of a logout that named no page to return to. */
export async function postLogoutSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
  ctx.set(loginPageHeaders([]));
  ctx.type = 'html';
  ctx.body = page(
    'Signed out - Catalog admin',
    '<h1>Catalog admin</h1><p role="status">You have signed out. Close this window, or open the console to sign in again.</p>',
  );
}
