import type { KeyboardEvent } from 'react';

/** Escape inside an inline panel closes it, as it closes a dialog (unless a control inside used it). */
export function closeOnEscape(close: () => void) {
  return (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    close();
  };
}
