// Keeps one instance of a cluster running: when it dies (kill -9, a crash, an out-of-memory kill) it
// is started again after a back-off, while nginx sends its requests to the other instances. Only
// stop() ends it. Shared by `pnpm start:cluster` and the cluster tests, which start their processes
// differently (instance-process.mts, the tests' spawnService), so the process is the caller's.

/** How long to wait before each restart. */
export interface RestartPolicy {
  /** Before the first restart. */
  readonly initialDelayMs: number;
  /** Each further restart in a row waits this many times longer… */
  readonly factor: number;
  /** …up to this. */
  readonly maxDelayMs: number;
  /** An instance that stayed up this long before it died is restarted after initialDelayMs again. */
  readonly stableAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = Object.freeze({
  initialDelayMs: 500,
  factor: 2,
  maxDelayMs: 30_000,
  stableAfterMs: 60_000,
});

/** The wait before the `restarts`-th restart in a row (1 for the first). */
export function restartDelay(policy: RestartPolicy, restarts: number): number {
  const delay = policy.initialDelayMs * policy.factor ** Math.max(0, restarts - 1);
  return Math.min(policy.maxDelayMs, delay);
}

/** What happened to a supervised instance, for the launcher's log and the tests. */
export type SupervisorEvent =
  | { readonly kind: 'exited'; readonly name: string; readonly how: string; readonly delayMs: number }
  | { readonly kind: 'restarted'; readonly name: string; readonly restarts: number }
  | {
      readonly kind: 'start-failed';
      readonly name: string;
      readonly error: unknown;
      readonly delayMs: number;
    };

export interface Supervised<P> {
  /** The process running now (the last one started, until the next one listens). */
  current(): P;
  /** How many processes have been started, the first one included. */
  starts(): number;
  /** Resolves once a process started after the `startsSeen`-th listens. */
  startedAfter(startsSeen: number): Promise<P>;
  /** Stops supervising, then stops the process running now; resolves once it has exited. */
  stop(): Promise<void>;
}

export interface SuperviseOptions<P> {
  readonly name: string;
  /** Starts a process; resolves once it serves, rejects when it exits or hangs first. */
  readonly start: () => Promise<P>;
  /** Resolves with how `process` ended (its exit code or signal) once it has exited. */
  readonly exited: (process: P) => Promise<string>;
  /** Asks `process` to stop (SIGINT or SIGTERM: it drains) and resolves once it has exited. */
  readonly stopProcess: (process: P) => Promise<void>;
  readonly policy?: RestartPolicy;
  readonly onEvent?: (event: SupervisorEvent) => void;
  /** Date.now unless a test drives the time an instance stayed up. */
  readonly clock?: () => number;
}

/**
 * Starts the first process (its failure is thrown: a configuration error is not restarted in a loop)
 * and restarts every later one that exits while supervised.
 */
export async function supervise<P>(options: SuperviseOptions<P>): Promise<Supervised<P>> {
  const policy = options.policy ?? DEFAULT_RESTART_POLICY;
  const emit = options.onEvent ?? (() => undefined);
  const now = options.clock ?? Date.now;
  let process: P = await options.start();
  let startedAt = now();
  let starts = 1;
  let restartsInARow = 0;
  let stopping = false;
  let pending: { timer: NodeJS.Timeout; wake: () => void } | undefined;
  let starting: Promise<unknown> = Promise.resolve();
  const waiters: Array<{ after: number; resolve: (process: P) => void; reject: (error: Error) => void }> = [];

  const sleep = (ms: number) =>
    new Promise<void>((wake) => {
      pending = { timer: setTimeout(wake, ms), wake };
    }).finally(() => {
      pending = undefined;
    });

  const nextDelay = () => {
    restartsInARow += 1;
    return restartDelay(policy, restartsInARow);
  };

  const restart = async (delayMs: number): Promise<void> => {
    for (let delay = delayMs; ; ) {
      await sleep(delay);
      if (stopping) return;
      try {
        const attempt = options.start().then((started) => {
          process = started;
        });
        starting = attempt.catch(() => undefined);
        await attempt;
      } catch (error) {
        if (stopping) return;
        delay = nextDelay();
        emit({ kind: 'start-failed', name: options.name, error, delayMs: delay });
        continue;
      }
      startedAt = now();
      starts += 1;
      emit({ kind: 'restarted', name: options.name, restarts: restartsInARow });
      for (const waiter of waiters.splice(0)) {
        if (starts > waiter.after) waiter.resolve(process);
        else waiters.push(waiter);
      }
      if (stopping) return;
      watch(process);
      return;
    }
  };

  const watch = (watched: P) => {
    void options.exited(watched).then((how) => {
      if (stopping || watched !== process) return;
      if (now() - startedAt >= policy.stableAfterMs) restartsInARow = 0;
      const delayMs = nextDelay();
      emit({ kind: 'exited', name: options.name, how, delayMs });
      void restart(delayMs);
    });
  };
  watch(process);

  return {
    current: () => process,
    starts: () => starts,
    startedAfter(startsSeen) {
      if (starts > startsSeen) return Promise.resolve(process);
      if (stopping) return Promise.reject(new Error(`${options.name}: no longer supervised`));
      return new Promise((resolve, reject) => waiters.push({ after: startsSeen, resolve, reject }));
    },
    async stop() {
      stopping = true;
      if (pending !== undefined) {
        clearTimeout(pending.timer);
        pending.wake();
      }
      for (const waiter of waiters.splice(0)) waiter.reject(new Error(`${options.name}: stopped`));
      // A start under way finishes first: the process it brings up is the one to stop.
      await starting;
      await options.stopProcess(process);
    },
  };
}
