import { useState } from 'react';
import { type FormErrorState, formErrorState } from './form-errors.ts';

/**
 * A form's submission: `busy` while its request runs, and the API's refusal split into messages next
 * to the form's fields and the rest for its alert. `run` never throws.
 */
export function useSubmission(formFields: readonly string[]) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FormErrorState | null>(null);
  const run = async (action: () => Promise<void>): Promise<void> => {
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
  return { busy, errors, fieldErrors: errors?.fields ?? {}, run };
}
