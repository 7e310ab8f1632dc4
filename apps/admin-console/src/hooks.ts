// Data loading shared by the pages.
import { useCallback, useEffect, useState } from 'react';

export type Loadable<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'error'; readonly error: unknown }
  | { readonly state: 'ready'; readonly value: T };

/**
 * Loads once, and again on reload(); the previous value stays visible while reloading. `patch` changes the
 * loaded value at once (e.g. with a write's answer) before the reload confirms it.
 */
export function useLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
): [Loadable<T>, () => void, (update: (value: T) => T) => void] {
  const [result, setResult] = useState<Loadable<T>>({ state: 'loading' });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (value) => {
        if (!controller.signal.aborted) setResult({ state: 'ready', value });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setResult({ state: 'error', error });
      },
    );
    return () => controller.abort();
  }, [load, generation]);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  const patch = useCallback(
    (update: (value: T) => T) =>
      setResult((current) =>
        current.state === 'ready' ? { state: 'ready', value: update(current.value) } : current,
      ),
    [],
  );
  return [result, reload, patch];
}
