import { ERROR_CODES } from './error-codes.ts';
import type { ErrorCode } from './types.ts';

export interface ServiceErrorOptions {
  readonly details?: Record<string, unknown>;
  readonly cause?: unknown;
  /** Whether message and code may reach the caller; by default yes below 500, no from 500 up. */
  readonly expose?: boolean;
}

/**
 * Base of every error the servers raise on purpose, in any layer. It carries the HTTP status and the
 * contract code of spec 7.3; the API's error middleware turns it into the error body in one place.
 */
export class ServiceError extends Error {
  readonly status: number;
  readonly code: ErrorCode | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly expose: boolean;

  constructor(
    status: number,
    code: ErrorCode | undefined,
    message: string,
    options: ServiceErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.details = options.details;
    this.expose = options.expose ?? status < 500;
  }

  /** An error with a contract code and the status the contract gives that code. */
  static of(code: ErrorCode, message: string, options: ServiceErrorOptions = {}): ServiceError {
    return new ServiceError(ERROR_CODES[code], code, message, { expose: true, ...options });
  }
}

/**
 * Whether a thrown value is a deliberate error the caller may see (4xx, or a 5xx marked `expose`):
 * what each server's error middleware answers as is; anything else becomes its generic 500.
 */
export function isAnswerable(error: unknown): error is ServiceError {
  return (
    error instanceof ServiceError &&
    error.status >= 400 &&
    error.status <= 599 &&
    (error.status < 500 || error.expose)
  );
}
