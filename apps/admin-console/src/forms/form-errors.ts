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

/** The browser's own check refused the form before sending it: what its alert says. */
export class FormCheckError extends Error {
  override readonly name = 'FormCheckError';

  constructor(invalidFields: number) {
    super(
      invalidFields === 1
        ? 'One field needs a change: its message is next to it. Nothing was sent.'
        : `${invalidFields} fields need a change: each message is next to its field. Nothing was sent.`,
    );
  }
}
