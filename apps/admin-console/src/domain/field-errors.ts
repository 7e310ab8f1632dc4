// Turning an API's field errors into messages next to the form's fields.
import type { FieldError } from '../api/types.ts';

export interface MappedFieldErrors {
  /** Messages per form field name. */
  readonly byField: Readonly<Record<string, readonly string[]>>;
  /** Messages whose field the form does not have: shown in the form's alert. */
  readonly unmatched: readonly string[];
}

/** `scopes.0` → `scopes`, `body.clientName` / `/clientName` → `clientName`, `items[2]` → `items`. */
export function fieldKey(field: string): string {
  const trimmed = field.replace(/^\/+/, '').replace(/^(body|query)[./]/, '');
  return trimmed.split(/[.[/]/)[0] ?? trimmed;
}

export function mapFieldErrors(
  errors: readonly FieldError[],
  formFields: readonly string[],
): MappedFieldErrors {
  const byField: Record<string, string[]> = {};
  const unmatched: string[] = [];
  for (const error of errors) {
    const key = fieldKey(error.field);
    if (formFields.includes(key)) {
      const list = byField[key] ?? [];
      list.push(error.message);
      byField[key] = list;
    } else {
      unmatched.push(error.field ? `${error.field}: ${error.message}` : error.message);
    }
  }
  return { byField, unmatched };
}

/** The field errors of an error body: `errors` (client management) or `details {field, reason}`. */
export function fieldErrorsOf(body: unknown): FieldError[] {
  if (typeof body !== 'object' || body === null) return [];
  const record = body as Record<string, unknown>;
  const result: FieldError[] = [];
  if (Array.isArray(record.errors)) {
    for (const item of record.errors) {
      if (typeof item !== 'object' || item === null) continue;
      const { field, message } = item as Record<string, unknown>;
      if (typeof message === 'string')
        result.push({ field: typeof field === 'string' ? field : '', message });
    }
  }
  const details = record.details;
  if (typeof details === 'object' && details !== null) {
    const { field, reason } = details as Record<string, unknown>;
    if (typeof field === 'string' && typeof reason === 'string') result.push({ field, message: reason });
  }
  return result;
}
