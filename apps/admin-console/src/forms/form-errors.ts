import { ApiError } from '../api/client.ts';
import { type MappedFieldErrors, mapFieldErrors } from '../domain/field-errors.ts';

export interface FormErrorState {
  readonly error: unknown;
  readonly fields: MappedFieldErrors['byField'];
  readonly unmatched: readonly string[];
}

/** An API error split into messages next to the form's fields and the rest for its alert. */
export function formErrorState(error: unknown, formFields: readonly string[]): FormErrorState {
  if (error instanceof ApiError && error.fieldErrors.length > 0) {
    const mapped = mapFieldErrors(error.fieldErrors, formFields);
    return { error, fields: mapped.byField, unmatched: mapped.unmatched };
  }
  return { error, fields: {}, unmatched: [] };
}
