import { useRef, useState } from 'react';
import { type BodyValidator, checkBody } from '../domain/form-checks.ts';
import { focusAfterRender } from '../focus-on-navigation.ts';
import { FormCheckError, type FormErrorState, formErrorState } from './form-errors.ts';

/** After a refusal, the first field marked invalid in the form that was sent takes the focus. */
function focusFirstInvalid(form: HTMLFormElement | null): void {
  if (form === null) return;
  focusAfterRender(() => form.querySelector<HTMLElement>('[aria-invalid="true"]'));
}

/** The form the administrator is sending: the one holding the focus (its button or a field). */
const activeForm = (): HTMLFormElement | null => document.activeElement?.closest('form') ?? null;

/**
 * A form's submission: `busy` while its request runs (a second submission meanwhile is ignored), and
 * the API's refusal split into messages next to the form's fields and the rest for its alert. `run`
 * never throws.
 */
export function useSubmission(formFields: readonly string[]) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FormErrorState | null>(null);
  const inFlight = useRef(false);
  // The last action, for "Try again" after a time-out, a 429 or a 5xx: the same request as sent.
  const last = useRef<(() => Promise<void>) | null>(null);
  const run = async (action: () => Promise<void>): Promise<void> => {
    if (inFlight.current) return;
    inFlight.current = true;
    last.current = action;
    const form = activeForm();
    setBusy(true);
    setErrors(null);
    try {
      await action();
    } catch (error) {
      const state = formErrorState(error, formFields);
      setErrors(state);
      if (Object.keys(state.fields).length > 0) focusFirstInvalid(form);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };
  /**
   * Checks the body in the browser with the API's own validator, as the API will: when it fails, the
   * form is refused here (each message next to its field, the first invalid field focused) and false
   * says that nothing is to be sent.
   */
  const accepts = (
    validate: BodyValidator,
    body: unknown,
    labels: Readonly<Record<string, string>>,
  ): boolean => {
    const fields = checkBody(validate, body, labels);
    if (Object.keys(fields).length === 0) return true;
    setErrors({ error: new FormCheckError(Object.keys(fields).length), fields, unmatched: [] });
    focusFirstInvalid(activeForm());
    return false;
  };
  const retry = () => {
    if (last.current !== null) void run(last.current);
  };
  return { busy, errors, fieldErrors: errors?.fields ?? {}, run, retry, accepts };
}
