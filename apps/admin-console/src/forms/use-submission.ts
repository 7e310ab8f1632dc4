import { useRef, useState } from 'react';
import { FormCheckError, type FormErrorState, formErrorState } from './form-errors.ts';

/**
 * A form's submission: `busy` while its request runs, and the API's refusal split into messages next
 * to the form's fields and the rest for its alert. `run` never throws.
 */
export function useSubmission(formFields: readonly string[]) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FormErrorState | null>(null);
  // The last action, for "Try again" after a time-out, a 429 or a 5xx: the same request as sent.
  const last = useRef<(() => Promise<void>) | null>(null);
  const run = async (action: () => Promise<void>): Promise<void> => {
    last.current = action;
    setBusy(true);
    setErrors(null);
    try {
      await action();
    } catch (error) {
      setErrors(formErrorState(error, formFields));
    } finally {
      setBusy(false);
    }
  };
  /** Refuses the form in the browser (its own check failed): the messages next to their fields. */
  const refuse = (fields: Readonly<Record<string, readonly string[]>>) => {
    setErrors({ error: new FormCheckError(Object.keys(fields).length), fields, unmatched: [] });
  };
  const retry = () => {
    if (last.current !== null) void run(last.current);
  };
  return { busy, errors, fieldErrors: errors?.fields ?? {}, run, retry, refuse };
}
