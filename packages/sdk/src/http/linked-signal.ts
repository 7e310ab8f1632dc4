// A signal that aborts when a parent does or when its time runs out, released as soon as the call is
// over: AbortSignal.timeout() keeps its timer, and AbortSignal.any() its link to a long-lived parent,
// until the time-out fires or a GC, so a pass of thousands of pages held thousands of them.

export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Whether it aborted because `ms` ran out. */
  timedOut(): boolean;
  /** Clears the timer and the listeners on the parents (the signal keeps its state). */
  release(): void;
}

export function linkedSignal(parents: readonly (AbortSignal | undefined)[], ms: number): LinkedSignal {
  const controller = new AbortController();
  let expired = false;
  const linked = parents.filter((parent): parent is AbortSignal => parent !== undefined);
  const onAbort = (event: Event) => controller.abort((event.target as AbortSignal).reason);
  for (const parent of linked) {
    if (parent.aborted) {
      controller.abort(parent.reason);
      break;
    }
    parent.addEventListener('abort', onAbort, { once: true });
  }
  const timer =
    ms > 0 && !controller.signal.aborted
      ? setTimeout(() => {
          expired = true;
          controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
        }, ms)
      : undefined;
  timer?.unref();
  return {
    signal: controller.signal,
    timedOut: () => expired,
    release() {
      if (timer !== undefined) clearTimeout(timer);
      for (const parent of linked) parent.removeEventListener('abort', onAbort);
    },
  };
}
