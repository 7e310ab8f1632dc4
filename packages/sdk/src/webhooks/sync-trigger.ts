/** Runs a sync pass when told, never two at once, and never loses a call made during a pass. */
export interface SyncTrigger {
  /** Asks for a pass: now when none runs, else exactly one more after the running one. */
  trigger(): void;
  /** Resolves once no pass runs and none is asked for. */
  idle(): Promise<void>;
}

export interface SyncTriggerOptions {
  /** A failed pass; the next trigger runs again (the sync commits nothing on failure). */
  readonly onError?: (error: unknown) => void;
}

/**
 * For a webhook receiver: each event says "something changed", and the pass walks from its checkpoint,
 * so a burst of events costs one pass (plus one for those that arrived during it), and an event lost
 * on the way loses nothing: the next pass, or the safety timer's, finds the change.
 */
export function createSyncTrigger(
  run: () => Promise<unknown>,
  options: SyncTriggerOptions = {},
): SyncTrigger {
  let running: Promise<void> | undefined;
  let again = false;
  const waiters: (() => void)[] = [];
  const start = (): void => {
    running = (async () => {
      try {
        await run();
      } catch (error) {
        options.onError?.(error);
      }
    })().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        start();
      } else for (const wake of waiters.splice(0)) wake();
    });
  };
  return {
    trigger() {
      if (running === undefined) start();
      else again = true;
    },
    idle() {
      return running === undefined ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
    },
  };
}
