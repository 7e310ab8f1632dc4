import { type AuditTrail, INTERACTION_PATH } from '@catalog/identity';
import type { RequestContextState } from '@catalog/server-runtime';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { authenticateAdmin } from '../accounts/authenticate-admin.ts';
import { SignInStoreUnavailable } from '../errors/sign-in-store-unavailable.ts';
import type { ConcurrencyGate } from '../limits/concurrency-gate.ts';
import type { ProviderHolder } from '../oidc/provider-holder.ts';
import type { AdminAccounts } from '../ports/admin-accounts.ts';
import type { LoginAttempts } from '../ports/login-attempts.ts';
import type { SignIns } from '../ports/sign-ins.ts';
import { csrfToken, isValidCsrfToken } from './csrf-token.ts';
import { finishSignIn } from './finish-sign-in.ts';
import { loginPageHeaders } from './html.ts';
import { expiredPage, loginPage } from './login-page.ts';
import { FormBodyError, readForm } from './read-form.ts';

export interface InteractionRoutesInput {
  readonly basePath: string;
  readonly holder: ProviderHolder;
  readonly accounts: AdminAccounts;
  readonly attempts: LoginAttempts;
  /** Bounds the scrypt derivations in flight. */
  readonly passwordChecks: ConcurrencyGate;
  /** Keeps the interaction of a password being checked, or accepted, from eviction. */
  readonly signIns: SignIns;
  readonly csrfKey: Uint8Array;
  /** Receives every sign-in, failure and lock-out. */
  readonly trail: AuditTrail;
  /** Where a signed-in browser is sent on to (the console's callback), for the form-action policy. */
  readonly consoleOrigins: readonly string[];
}

const INVALID_CREDENTIALS = 'Invalid email or password.';
const REFUSALS = {
  locked: { status: 429, message: 'Too many failed sign-in attempts. Wait 15 minutes and try again.' },
  busy: { status: 503, message: 'The sign-in service is busy. Try again in a moment.' },
} as const;
const FULL = 'Too many sign-ins are in progress. Try again in a minute.';
const FULL_RETRY_AFTER_SECONDS = 60;

function sendHtml(ctx: Context, status: number, body: string, headers: Record<string, string>) {
  ctx.set(headers);
  ctx.status = status;
  ctx.type = 'html';
  ctx.body = body;
}

/** A cross-site form post carries a foreign Origin; browsers send it on every POST. */
function sameOrigin(ctx: Context): boolean {
  const origin = ctx.get('Origin');
  return origin === '' || origin === `${ctx.protocol}://${ctx.host}`;
}

/**
 * The sign-in page of the authorization-code flow (GET shows the form, POST checks it), the only
 * interaction this provider has. Failures show one generic message; a wrong CSRF token or a stale
 * interaction shows the expired page.
 */
export function interactionRoutes(input: InteractionRoutesInput): Middleware {
  const router = new Router<RequestContextState>({ prefix: `${input.basePath}${INTERACTION_PATH}` });
  const headers = loginPageHeaders(input.consoleOrigins);
  const html = (ctx: Context, status: number, body: string) => sendHtml(ctx, status, body, headers);
  const loginAction = (uid: string) => `${input.basePath}${INTERACTION_PATH}/${uid}/login`;

  const interactionOf = async (ctx: Context) => {
    const { provider } = await input.holder.current();
    try {
      return { provider, interaction: await provider.interactionDetails(ctx.req, ctx.res) };
    } catch (error) {
      // Answered 503 by ../limits/sign-in-admission.ts: the sign-in has not expired.
      if (error instanceof SignInStoreUnavailable) throw error;
      html(ctx, 400, expiredPage());
      return undefined;
    }
  };

  router.get('/:uid', async (ctx) => {
    const found = await interactionOf(ctx);
    if (found === undefined) return;
    const { provider, interaction } = found;
    if (interaction.uid !== ctx.params.uid) return html(ctx, 400, expiredPage());
    const accountId = interaction.session?.accountId;
    if (interaction.prompt.name !== 'login' && accountId !== undefined) {
      ctx.respond = false;
      return finishSignIn({ provider, interaction, accountId, login: false, req: ctx.req, res: ctx.res });
    }
    html(
      ctx,
      200,
      loginPage({ action: loginAction(interaction.uid), csrf: csrfToken(input.csrfKey, interaction.uid) }),
    );
  });

  router.post('/:uid/login', async (ctx) => {
    let form: URLSearchParams;
    try {
      form = await readForm(ctx);
    } catch (error) {
      if (error instanceof FormBodyError) return html(ctx, error.status, expiredPage());
      throw error;
    }
    const uid = ctx.params.uid ?? '';
    if (!sameOrigin(ctx) || !isValidCsrfToken(input.csrfKey, uid, form.get('csrf') ?? '')) {
      return html(ctx, 403, expiredPage());
    }
    const found = await interactionOf(ctx);
    if (found === undefined) return;
    const { provider, interaction } = found;
    if (interaction.uid !== uid) return html(ctx, 400, expiredPage());
    // Kept while the password is checked, so that open sign-ins arriving meanwhile cannot evict it;
    // kept for good once accepted. Only the password checks in flight (bounded) and the sign-ins
    // that succeeded hold a place, so nobody without a password can fill the places.
    const kept = await input.signIns.keep(uid);
    if (kept === 'gone') return html(ctx, 400, expiredPage());
    const email = form.get('email') ?? '';
    if (kept === 'full') {
      ctx.set('Retry-After', String(FULL_RETRY_AFTER_SECONDS));
      const page = loginPage({
        action: loginAction(uid),
        csrf: csrfToken(input.csrfKey, uid),
        email,
        error: FULL,
      });
      return html(ctx, 503, page);
    }
    const result = await authenticateAdmin({
      accounts: input.accounts,
      attempts: input.attempts,
      passwordChecks: input.passwordChecks,
      trail: input.trail,
      // ctx.ip is the proxy's last X-Forwarded-For entry behind TRUST_PROXY (see app.ts).
      request: { sourceIp: ctx.ip, requestId: ctx.state.requestId },
      email,
      password: form.get('password') ?? '',
    }).catch(async (error: unknown) => {
      await kept.release().catch(() => {});
      throw error;
    });
    if (!result.ok) {
      await kept.release();
      let refusal: { status: number; message: string } = { status: 401, message: INVALID_CREDENTIALS };
      if (result.reason !== 'invalid-credentials') {
        refusal = REFUSALS[result.reason];
        ctx.set('Retry-After', String(result.retryAfterSeconds));
      }
      const page = loginPage({
        action: loginAction(uid),
        csrf: csrfToken(input.csrfKey, uid),
        email,
        error: refusal.message,
      });
      return html(ctx, refusal.status, page);
    }
    ctx.respond = false;
    await finishSignIn({
      provider,
      interaction,
      accountId: result.account.id,
      login: true,
      req: ctx.req,
      res: ctx.res,
    });
  });

  return router.routes() as Middleware;
}
