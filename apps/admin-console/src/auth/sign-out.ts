// OpenID Connect RP-initiated logout: the token server ends its session too, so that no tab, new or
// old, signs in again without the password. It then sends the browser to `<base>signed-out`.
import type { ConsoleConfig } from '../config.ts';

export function postLogoutRedirectUri(): string {
  return new URL('signed-out', document.baseURI).href;
}

export function buildEndSessionUrl(
  config: ConsoleConfig,
  params: { readonly idTokenHint: string | null; readonly postLogoutRedirectUri: string },
): string {
  const url = new URL(config.endSessionEndpoint);
  // The hint proves the console asked; without one (the token already dropped) the client id names it.
  if (params.idTokenHint !== null) url.searchParams.set('id_token_hint', params.idTokenHint);
  else url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('post_logout_redirect_uri', params.postLogoutRedirectUri);
  return url.href;
}
