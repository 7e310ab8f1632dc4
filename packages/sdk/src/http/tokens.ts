// Client-credentials tokens (spec 4.3, 5): cached until shortly before expiry, one request for any number
// of concurrent cold calls, dropped on 401 only if still the one that failed, optionally shared.
import type { GrantableScope, TokenResponse, TokenScope } from '@catalog/contracts';
import { AuthenticationError, CatalogError } from '../errors.ts';
import { callHook } from './hooks.ts';
import { type Authorizer, send, type TransportSettings } from './transport.ts';

export interface CachedToken {
  readonly accessToken: string;
  /** Epoch ms at which the token expires (from `expires_in`). */
  readonly expiresAt: number;
  /** Its lifetime in seconds, as the token endpoint gave it. */
  readonly lifetimeSeconds: number;
}

/** Where tokens are kept, to share them between clients or processes. Keys name client, scopes and host. */
export interface TokenStore {
  get(key: string): Promise<CachedToken | undefined> | CachedToken | undefined;
  set(key: string, token: CachedToken): Promise<void> | void;
  delete(key: string): Promise<void> | void;
}

export function createMemoryTokenStore(): TokenStore {
  const tokens = new Map<string, CachedToken>();
  return {
    get: (key) => tokens.get(key),
    set: (key, token) => void tokens.set(key, token),
    delete: (key) => void tokens.delete(key),
  };
}

export interface TokenProviderOptions {
  readonly authUrl: URL;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scopes: readonly (GrantableScope | TokenScope)[];
  readonly store: TokenStore;
  readonly transport: TransportSettings;
  readonly now?: () => number;
}

// The scope prefix, taken from the contract's `TokenScope` type (a template literal `crm-api/${scope}`).
type ScopePrefix = TokenScope extends `${infer Prefix}${GrantableScope}` ? Prefix : never;
const SCOPE_PREFIX: ScopePrefix = 'crm-api/';

export function toTokenScopes(scopes: readonly (GrantableScope | TokenScope)[]): string {
  return scopes
    .map((scope) => (scope.startsWith(SCOPE_PREFIX) ? scope : `${SCOPE_PREFIX}${scope}`))
    .join(' ');
}

/** Refresh min(300 s, lifetime / 2) before expiry. */
export function refreshMarginMs(lifetimeSeconds: number): number {
  return Math.min(300, lifetimeSeconds / 2) * 1000;
}

export function createTokenProvider(
  options: TokenProviderOptions,
): Authorizer & { token(signal?: AbortSignal, traceparent?: string): Promise<string> } {
  const now = options.now ?? Date.now;
  const scope = toTokenScopes(options.scopes);
  const key = `${options.authUrl.origin}|${options.clientId}|${scope}`;
  const tokenUrl = new URL(
    'oauth2/token',
    options.authUrl.href.endsWith('/') ? options.authUrl : `${options.authUrl.href}/`,
  );
  let inFlight: Promise<CachedToken> | undefined;
  let current: CachedToken | undefined;
  let rejectedToken: string | undefined;

  const fetchToken = async (
    reason: 'cold' | 'expiring' | 'rejected',
    traceparent: string | undefined,
  ): Promise<CachedToken> => {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: options.clientId,
      client_secret: options.clientSecret,
      scope,
    });
    let reply: Awaited<ReturnType<typeof send<TokenResponse>>>;
    try {
      reply = await send<TokenResponse>(
        options.transport,
        {
          method: 'POST',
          url: tokenUrl,
          body: form.toString(),
          contentType: 'application/x-www-form-urlencoded',
          unpaced: true,
        },
        traceparent === undefined ? {} : { traceparent },
      );
    } catch (error) {
      if (error instanceof CatalogError && error.status === 400) {
        // invalid_client, invalid_scope, invalid_grant (spec 7.4): the credentials must be fixed.
        throw new AuthenticationError({
          message: `Token endpoint refused the credentials: ${error.code ?? 'error'}: ${error.message}`,
          status: 400,
          code: error.code,
          body: error.body,
          cause: error,
        });
      }
      throw error;
    }
    const lifetimeSeconds = reply.body.expires_in;
    const token = {
      accessToken: reply.body.access_token,
      expiresAt: now() + lifetimeSeconds * 1000,
      lifetimeSeconds,
    };
    callHook(options.transport.hooks.onTokenRefresh, { reason, expiresInSeconds: lifetimeSeconds });
    await options.store.set(key, token);
    return token;
  };

  const usable = (token: CachedToken | undefined): boolean =>
    token !== undefined &&
    token.accessToken !== rejectedToken &&
    now() < token.expiresAt - refreshMarginMs(token.lifetimeSeconds);

  const token = async (signal?: AbortSignal, traceparent?: string): Promise<string> => {
    if (current !== undefined && usable(current)) return current.accessToken;
    if (inFlight === undefined) {
      const previous: CachedToken | undefined = current;
      const reason =
        previous === undefined ? 'cold' : previous.accessToken === rejectedToken ? 'rejected' : 'expiring';
      inFlight = (async () => {
        const shared = await options.store.get(key);
        if (shared !== undefined && usable(shared)) return shared;
        // The fetch is shared by every waiter: it is not tied to one caller's signal; it joins the
        // trace of the request that started it.
        return fetchToken(reason, traceparent);
      })().finally(() => {
        inFlight = undefined;
      });
      inFlight.then(
        (fresh) => {
          current = fresh;
        },
        () => undefined,
      );
    }
    const pending = inFlight;
    const fresh = await (signal === undefined
      ? pending
      : Promise.race([
          pending,
          new Promise<never>((_, reject) => {
            if (signal.aborted) reject(signal.reason);
            signal.addEventListener('abort', () => reject(signal.reason), { once: true });
          }),
        ]));
    current = fresh;
    return fresh.accessToken;
  };

  return {
    token,
    header: async (signal, traceparent) => `Bearer ${await token(signal, traceparent)}`,
    rejected(header) {
      const refused = header.slice('Bearer '.length);
      if (current?.accessToken === refused) {
        rejectedToken = refused;
        void options.store.delete(key);
      }
    },
  };
}
