import { ServiceError } from '@catalog/contracts';

/** 400 VALIDATION_ERROR with the contract's `details {field, reason}`, for a rule the schema cannot state. */
export function webhookInputError(field: string, reason: string): ServiceError {
  return ServiceError.of('VALIDATION_ERROR', `${field} ${reason}`, { details: { field, reason } });
}
