/**
 * Base of every error the API answers with on purpose. `code` is the contract's machine-readable
 * code (spec 7.3); `expose` says whether `message` and `code` may be sent to the caller (by default
 * not for 5xx; a deliberate 503/504 sets it).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly expose: boolean;

  constructor(
    status: number,
    message: string,
    options: { code?: string; details?: Record<string, unknown>; cause?: unknown; expose?: boolean } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.code = options.code;
    this.details = options.details;
    this.expose = options.expose ?? status < 500;
  }
}

export class NotFoundError extends ApiError {
  constructor(message = 'Resource not found') {
    super(404, message, { code: 'NOT_FOUND' });
  }
}
