import { StoreError } from './store-error.ts';

export class ValidationError extends StoreError {
  readonly field: string;
  readonly reason: string;

  constructor(field: string, reason: string) {
    super('VALIDATION_ERROR', `${field}: ${reason}`, { details: { field, reason } });
    this.field = field;
    this.reason = reason;
  }
}

export class NotFoundError extends StoreError {
  constructor(resource: string, id: string) {
    super('NOT_FOUND', `${resource} not found`, { details: { resource, id } });
  }
}

/** A revoked M2M client is frozen: the caller must create a replacement (spec 3). */
export class ClientRevokedError extends StoreError {
  constructor(clientId: string) {
    super('INVALID_PARAMETER', 'A revoked client cannot be updated; create a new client instead', {
      details: { clientId },
    });
  }
}

/**
 * A conditional write (If-Match) named a version the record no longer has: someone else wrote it
 * since the caller read it. Nothing was written; `currentVersion` is what a new read would return.
 */
export class PreconditionFailedError extends StoreError {
  readonly currentVersion: number;

  constructor(resource: string, id: string, currentVersion: number) {
    super(
      'PRECONDITION_FAILED',
      `${resource} was changed by someone else since you read it: read it again, then write your change`,
      { details: { resource, id, currentVersion } },
    );
    this.currentVersion = currentVersion;
  }
}
