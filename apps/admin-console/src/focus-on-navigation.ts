// Where the focus goes once React has rendered what an action changed: a panel that closed gives it
// back to the control that opened it, a new page to its heading. Without this the focus falls to
// <body> when the focused element leaves the page.

/** Focuses what `find` returns once the next frame has rendered (nothing when it finds nothing). */
export function focusAfterRender(find: () => HTMLElement | null | undefined): void {
  requestAnimationFrame(() => find()?.focus());
}

/**
 * After the console's own navigation (a link, Back, Forward), focus moves to the new page's heading,
 * as a full page load would put a screen reader at the top of the new page: it reads the page's name,
 * and the next Tab starts from there instead of from the link that was pressed.
 */
export function focusPageHeading(): void {
  focusAfterRender(() => {
    const heading = document.querySelector<HTMLElement>('main h1');
    if (heading !== null && !heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    return heading;
  });
}
