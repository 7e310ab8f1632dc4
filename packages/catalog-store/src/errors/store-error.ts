import type { ErrorCode } from '@catalog/contracts';
import { ERROR_CODES, ServiceError } from '@catalog/contracts/fields-and-errors';

export type StoreErrorCode = ErrorCode;

export interface StoreErrorOptions {
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * Base of every error the store raises on purpose. It is a contract ServiceError: the API's error
 * middleware maps it like any other, with the status the contract gives its code.
 */
export class StoreError extends ServiceError {
  declare readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options: StoreErrorOptions = {}) {
    super(ERROR_CODES[code], code, message, {
      expose: true,
      ...(options.details === undefined ? {} : { details: options.details }),
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
  }
}
