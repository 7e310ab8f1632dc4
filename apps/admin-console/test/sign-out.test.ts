import { describe, expect, it } from 'vitest';
import { buildEndSessionUrl } from '../src/auth/sign-out.ts';
import type { ConsoleConfig } from '../src/config.ts';

const config: ConsoleConfig = {
  issuer: 'https://auth.test',
  clientId: 'catalog-admin',
  tokenEndpoint: 'https://auth.test/oauth2/token',
  authorizationEndpoint: 'https://auth.test/oauth2/authorize',
  endSessionEndpoint: 'https://auth.test/oauth2/logout',
  apiBaseUrl: 'https://catalog.test',
  basePath: '',
  localCaFile: null,
};
const back = 'https://catalog.test/console/signed-out';

describe('Sign out ends the token server’s session (RP-initiated logout)', () => {
  it('sends the ID token as hint and the console’s signed-out page to come back to', () => {
    const url = new URL(buildEndSessionUrl(config, { idTokenHint: 'h.e.s', postLogoutRedirectUri: back }));
    expect(`${url.origin}${url.pathname}`).toBe('https://auth.test/oauth2/logout');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      id_token_hint: 'h.e.s',
      post_logout_redirect_uri: back,
    });
  });

  it('names the client instead when it holds no ID token any more', () => {
    const url = new URL(buildEndSessionUrl(config, { idTokenHint: null, postLogoutRedirectUri: back }));
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'catalog-admin',
      post_logout_redirect_uri: back,
    });
  });
});
