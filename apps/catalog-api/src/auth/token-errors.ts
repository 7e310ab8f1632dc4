import { ServiceError } from '@catalog/contracts';
import { GatewayError } from '../http/gateway-error.ts';

/** Missing, malformed, expired, forged or wrong-type token (spec 7.1: 401). */
export class InvalidTokenError extends GatewayError {
  /** Why, for the logs only: the caller sees "Unauthorized". */
  readonly reason: string;

  constructor(reason: string, options: { cause?: unknown } = {}) {
    super(401, 'Unauthorized', options);
    this.reason = reason;
  }
}

/** The token server's keys cannot be fetched, so no token can be checked right now. */
export class TokenVerificationUnavailableError extends ServiceError {
  constructor(options: { cause?: unknown } = {}) {
    super(503, undefined, 'Token verification is temporarily unavailable; retry shortly', {
      ...options,
      expose: true,
    });
  }
}
