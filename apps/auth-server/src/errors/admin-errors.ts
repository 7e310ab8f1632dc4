/** Base of the errors the admin operations raise on purpose; the CLI prints `message` and exits 1. */
export class AdminOperationError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class AdminUserNotFoundError extends AdminOperationError {
  constructor(email: string) {
    super(`no administrator with email ${email}`);
  }
}

export class WeakPasswordError extends AdminOperationError {}

/**
 * The sign-in flow did not end with a code: wrong credentials, lock-out or rate limit, a server too
 * busy to check the password, or an unexpected answer.
 */
export class SignInError extends AdminOperationError {
  readonly reason: 'invalid-credentials' | 'locked' | 'busy' | 'protocol';
  constructor(reason: SignInError['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}
