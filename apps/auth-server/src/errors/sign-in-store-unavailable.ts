import { errors } from 'oidc-provider';

/** How long a browser is asked to wait before trying a sign-in again. */
export const SIGN_IN_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * The store of sign-ins in progress (Redis) cannot answer. Thrown by the Redis adapters, it is an
 * oidc-provider error so that the provider answers it itself where it meets it (the error page of
 * the authorization endpoint, the token endpoint's JSON) with 503 and OAuth's
 * `temporarily_unavailable`, never a 500; our own sign-in routes answer it with the same 503 page.
 * Never redirected to the client: the browser is shown the page and can retry.
 */
export class SignInStoreUnavailable extends errors.OIDCProviderError {
  override allow_redirect = false;

  constructor(options?: { readonly cause?: unknown }) {
    super(503, 'temporarily_unavailable', options);
    this.expose = true;
    this.error_description = 'sign-in is unavailable for a moment; try again shortly';
  }
}
