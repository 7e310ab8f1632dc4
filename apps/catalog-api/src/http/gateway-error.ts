import { ServiceError } from '@catalog/contracts';

/**
 * A rejection of the gateway layer (401, 403, 429): its body carries only `message`
 * (spec 7.2: Unauthorized, Forbidden, Too many requests).
 */
export class GatewayError extends ServiceError {
  readonly gateway = true;
  readonly headers: Record<string, string>;

  constructor(
    status: 401 | 403 | 429,
    message: string,
    options: { cause?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(status, undefined, message, options.cause === undefined ? {} : { cause: options.cause });
    this.headers = options.headers ?? {};
  }

  static forbidden(): GatewayError {
    return new GatewayError(403, 'Forbidden');
  }

  static tooManyRequests(retryAfterSeconds: number): GatewayError {
    return new GatewayError(429, 'Too many requests', {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}
