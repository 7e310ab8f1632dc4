import type { RecordWork, SqlStep } from './record-work.ts';

/**
 * Drives a rule to its end with a synchronous executor. An executor's error is thrown into the
 * rule at the statement that failed, so that a rule may catch it as it would a direct call's.
 */
export function runRecordWork<T>(work: RecordWork<T>, execute: (step: SqlStep) => unknown): T {
  let next = work.next();
  while (next.done !== true) {
    let answer: unknown;
    try {
      answer = execute(next.value);
    } catch (error) {
      next = work.throw(error);
      continue;
    }
    next = work.next(answer);
  }
  return next.value;
}

/** `runRecordWork` with an executor that awaits each statement. */
export async function runRecordWorkAsync<T>(
  work: RecordWork<T>,
  execute: (step: SqlStep) => Promise<unknown>,
): Promise<T> {
  let next = work.next();
  while (next.done !== true) {
    let answer: unknown;
    try {
      answer = await execute(next.value);
    } catch (error) {
      next = work.throw(error);
      continue;
    }
    next = work.next(answer);
  }
  return next.value;
}
