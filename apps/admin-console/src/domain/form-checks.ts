// A form's body checked in the browser with the API's own validator, before it is sent: the same
// reasons the API would give, each next to the field it names, led by the field's label on screen.
import { fieldPath, reason } from '@catalog/contracts/validation-reasons';
import type { ErrorObject } from 'ajv';

/** An ajv validator (standalone code): true when valid, else its errors in `errors`. */
export type BodyValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** The first reason per top-level field (`scopes.0` counts as `scopes`), or an empty object when valid. */
export function checkBody(
  validate: BodyValidator,
  body: unknown,
  labels: Readonly<Record<string, string>>,
): Record<string, string[]> {
  if (validate(body)) return {};
  const byField: Record<string, string[]> = {};
  for (const error of validate.errors ?? []) {
    const field = fieldPath(error)[0] ?? 'body';
    if (byField[field] !== undefined) continue;
    byField[field] = [`${labels[field] ?? field} ${reason(error)}.`];
  }
  return byField;
}
