// While a page shows something that is lost once the administrator leaves it (a client secret shown
// once), leaving asks first: the console's own links (navigate), Back and Forward (popstate), and
// reload, close or typing another address (beforeunload, the browser's own question).
import { useEffect } from 'react';

let question: string | null = null;
let guardedHref = '';

/** The console moved within its page (another list page, a filter): a refused Back returns here. */
export function rememberLocation(): void {
  if (question !== null) guardedHref = location.href;
}

/** Whether the administrator may leave: true without a guard, else their answer to its question. */
export function mayLeave(): boolean {
  if (question === null) return true;
  if (!window.confirm(question)) return false;
  question = null;
  return true;
}

/**
 * Hears Back, Forward and unloads. Installed before the console renders: its popstate listener
 * captures, so it runs before the router's, and a refused Back puts the page back before anything
 * re-renders.
 */
export function installLeaveGuard(): void {
  window.addEventListener(
    'popstate',
    (event) => {
      if (question === null || mayLeave()) return;
      event.stopImmediatePropagation();
      history.pushState(null, '', guardedHref);
    },
    { capture: true },
  );
  window.addEventListener('beforeunload', (event) => {
    if (question !== null) event.preventDefault();
  });
}

/** Asks `text` before the administrator leaves the page, for as long as the calling component shows. */
export function useLeaveGuard(text: string): void {
  useEffect(() => {
    question = text;
    guardedHref = location.href;
    return () => {
      question = null;
    };
  }, [text]);
}
