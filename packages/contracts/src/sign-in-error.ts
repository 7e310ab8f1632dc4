/**
 * Why an administrator's sign-in (authorization code + PKCE against the token server) ended without an
 * ID token: the login page refused the credentials, the account is locked out or the server too busy
 * to check the password, the server refused the authorization or the code, the server could not be
 * reached, or an answer did not fit the flow (a foreign state or nonce, a page that is not ours).
 */
export type SignInFailure =
  | 'invalid-credentials'
  | 'locked'
  | 'busy'
  | 'refused'
  | 'unreachable'
  | 'protocol';

/**
 * The one sign-in error of both clients of the flow, the operator CLI and the browser console. It is a
 * client's error, never a server's answer, so it is no ServiceError: `message` is written for the person
 * signing in.
 */
export class SignInError extends Error {
  readonly reason: SignInFailure;

  constructor(reason: SignInFailure, message: string) {
    super(message);
    this.name = 'SignInError';
    this.reason = reason;
  }
}
