import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways on narrow screens instead of widening the page. A labelled <section> is a
 * region landmark; it is focusable so that keyboard users can scroll it.
 */
export function TableRegion({ label, children }: { readonly label: string; readonly children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to scroll by keyboard.
    <section className="table-scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
