import { ERROR_CODES, type ErrorCode, ServiceError } from '@catalog/contracts';

/**
 * Base of the errors the admin operations raise on purpose; the CLI prints `message` and exits 1. They
 * are ServiceErrors so that a route offering the same operation answers them as the API answers its own:
 * a refusal of the caller's input carries its contract code, and anything else is an internal error
 * (500, not exposed) whose message only the operator's terminal sees.
 */
export class AdminOperationError extends ServiceError {
  constructor(message: string, options: { readonly code?: ErrorCode; readonly cause?: unknown } = {}) {
    const { code = 'INTERNAL_ERROR', cause } = options;
    super(ERROR_CODES[code], code, message, { cause });
  }
}

export class AdminUserNotFoundError extends AdminOperationError {
  constructor(email: string) {
    super(`no administrator with email ${email}`, { code: 'NOT_FOUND' });
  }
}

export class WeakPasswordError extends AdminOperationError {
  constructor(message: string) {
    super(message, { code: 'VALIDATION_ERROR' });
  }
}
