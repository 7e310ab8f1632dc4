import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_TYPE,
  ADMIN_CLIENT_ID,
  fromTokenScope,
  type GrantableScope,
  TOKEN_SIGNING_ALGORITHM,
} from '@catalog/contracts';
import { startTrace, type TraceContext, traceHeaders } from '@catalog/server-runtime';
import { createRemoteJWKSet, customFetch, errors, type JWTPayload, jwtVerify } from 'jose';
import { Agent, fetch } from 'undici';
import type { TokenTrustConfig } from '../config/config.ts';
import type { Principal } from './principal.ts';
import { InvalidTokenError, TokenVerificationUnavailableError } from './token-errors.ts';
import { createVerifiedTokenCache } from './verified-token-cache.ts';

export interface TokenVerifier {
  /**
   * The caller behind a token; InvalidTokenError (401) or TokenVerificationUnavailableError (503).
   * A fetch of the keys this verification causes carries `trace` (the request's) to the token server.
   */
  verify(token: string, trace?: TraceContext): Promise<Principal>;
  /**
   * Whether tokens can be verified now (readiness): the keys were fetched within their cache
   * lifetime and the last fetch succeeded, or a fetch made now succeeds.
   */
  keysAvailable(): Promise<boolean>;
}

// Keys are cached for 10 minutes; an unknown `kid` refetches at once, at most every 30 seconds.
const JWKS_CACHE_MS = 10 * 60_000;
const JWKS_COOLDOWN_MS = 30_000;
const JWKS_TIMEOUT_MS = 5_000;

const JWKS_UNAVAILABLE = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID']);

/** Verified tokens remembered: a few per active client and administrator, about 1 KB each. */
const VERIFIED_TOKENS = 10_000;

function scopesOf(payload: JWTPayload): ReadonlySet<GrantableScope> {
  if (typeof payload.scope !== 'string') throw new InvalidTokenError('access token without scope');
  const scopes = new Set<GrantableScope>();
  for (const value of payload.scope.split(' ')) {
    const scope = fromTokenScope(value);
    if (scope !== undefined) scopes.add(scope);
  }
  return scopes;
}

function principalOf(payload: JWTPayload, type: unknown): Principal {
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (type === ACCESS_TOKEN_TYPE) {
    // An access token must be meant for this API and name its client.
    if (!audiences.includes(ACCESS_TOKEN_AUDIENCE) || typeof payload.client_id !== 'string') {
      throw new InvalidTokenError('access token for another audience');
    }
    return { kind: 'm2m', clientId: payload.client_id, scopes: scopesOf(payload) };
  }
  // Anything else must be an ID token issued to the admin client, and nothing but that.
  if (audiences.length !== 1 || audiences[0] !== ADMIN_CLIENT_ID || typeof payload.sub !== 'string') {
    throw new InvalidTokenError('not an ID token of the admin client');
  }
  const groups = Array.isArray(payload.groups) ? payload.groups.filter((g) => typeof g === 'string') : [];
  const userName = typeof payload.email === 'string' ? payload.email : payload.sub;
  return { kind: 'user', userId: payload.sub, userName, groups };
}

/**
 * Verifies tokens against the token server's published keys with the issuer, the algorithm and the
 * audiences pinned, then tells an access token (`typ: at+jwt`, audience crm-api) from an
 * administrator's ID token (no such `typ`, audience = the admin client).
 */
export function createTokenVerifier(config: TokenTrustConfig, now: () => number = Date.now): TokenVerifier {
  const verified = createVerifiedTokenCache({ maxEntries: VERIFIED_TOKENS, maxAgeMs: JWKS_CACHE_MS });
  const ca = config.caFile === undefined ? undefined : readFileSync(config.caFile, 'utf8');
  const dispatcher = new Agent({ connect: ca === undefined ? {} : { ca } });
  // Whether the latest fetch of the keys got them: a failed one makes the API not ready.
  let lastFetchOk = false;
  // jose fetches the keys from inside the verification that needed them (none cached, or a kid it
  // did not know) but its fetch hook takes no per-call data: the request's trace reaches the fetch
  // through this store. A fetch outside any verification (readiness) starts a trace of its own.
  const fetchingFor = new AsyncLocalStorage<TraceContext>();
  const keys = createRemoteJWKSet(new URL(config.jwksUrl), {
    cacheMaxAge: JWKS_CACHE_MS,
    cooldownDuration: JWKS_COOLDOWN_MS,
    timeoutDuration: JWKS_TIMEOUT_MS,
    [customFetch]: (url, options) =>
      fetch(url, {
        method: options.method,
        headers: {
          ...Object.fromEntries(options.headers),
          ...traceHeaders(fetchingFor.getStore() ?? startTrace()),
        },
        redirect: options.redirect,
        signal: options.signal,
        dispatcher,
      }).then(
        (response) => {
          lastFetchOk = response.ok;
          return response as unknown as Response;
        },
        (error: unknown) => {
          lastFetchOk = false;
          throw error;
        },
      ),
  });

  return {
    async verify(token, trace) {
      const known = verified.get(token, now());
      if (known !== undefined) return known;
      const verification = () =>
        jwtVerify(token, keys, {
          issuer: config.issuer,
          audience: [ACCESS_TOKEN_AUDIENCE, ADMIN_CLIENT_ID],
          algorithms: [TOKEN_SIGNING_ALGORITHM],
          requiredClaims: ['exp', 'iat', 'sub'],
          currentDate: new Date(now()),
        });
      try {
        const { payload, protectedHeader } = await (trace === undefined
          ? verification()
          : fetchingFor.run(trace, verification));
        const principal = principalOf(payload, protectedHeader.typ);
        verified.remember(token, principal, (payload.exp as number) * 1000, now());
        return principal;
      } catch (error) {
        if (error instanceof InvalidTokenError) throw error;
        if (error instanceof errors.JOSEError && !JWKS_UNAVAILABLE.has(error.code)) {
          throw new InvalidTokenError(error.code, { cause: error });
        }
        // The keys could not be fetched: the token may well be good, so this is not a 401.
        throw new TokenVerificationUnavailableError({ cause: error });
      }
    },
    async keysAvailable() {
      if (keys.fresh && lastFetchOk) return true;
      try {
        await keys.reload();
        return true;
      } catch {
        return false;
      }
    },
  };
}
