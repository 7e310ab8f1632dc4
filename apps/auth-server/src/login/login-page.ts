import { escapeHtml, page } from './html.ts';

export interface LoginPageInput {
  readonly action: string;
  readonly csrf: string;
  readonly email?: string;
  readonly error?: string;
}

/** The administrators' sign-in form: plain HTML, posted back to the same interaction. */
export function loginPage(input: LoginPageInput): string {
  const error =
    input.error === undefined ? '' : `<p class="error" role="alert">${escapeHtml(input.error)}</p>`;
  return page(
    'Sign in - Catalog admin',
    `<h1>Catalog admin</h1>
${error}
<form method="post" action="${escapeHtml(input.action)}" autocomplete="on">
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" required autofocus autocomplete="username" value="${escapeHtml(input.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" required autocomplete="current-password">
<button type="submit">Sign in</button>
</form>`,
  );
}

export function expiredPage(): string {
  return page(
    'Sign-in expired - Catalog admin',
    '<h1>Catalog admin</h1><p class="error">This sign-in has expired or is not valid. Start again from your application.</p>',
  );
}
