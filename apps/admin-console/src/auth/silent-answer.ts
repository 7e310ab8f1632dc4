// What the token server answered a prompt=none authorization request with, read from the URL it
// redirected the hidden frame to.

export type SilentAnswer =
  | { readonly kind: 'code'; readonly code: string }
  /** The token server's session has ended (login_required and its kin): the Sign in page, as before. */
  | { readonly kind: 'sign-in-required' }
  | { readonly kind: 'failed'; readonly reason: string };

/** Errors of OpenID Connect Core 3.1.2.6 that mean the administrator must sign in interactively. */
const INTERACTIVE = new Set([
  'login_required',
  'interaction_required',
  'consent_required',
  'account_selection_required',
]);

export function readSilentAnswer(url: URL, expectedState: string): SilentAnswer {
  const params = url.searchParams;
  if (params.get('state') !== expectedState)
    return { kind: 'failed', reason: 'the answer’s state is not the one sent' };
  const error = params.get('error');
  if (error !== null)
    return INTERACTIVE.has(error) ? { kind: 'sign-in-required' } : { kind: 'failed', reason: error };
  const code = params.get('code');
  return code === null ? { kind: 'failed', reason: 'no code' } : { kind: 'code', code };
}
