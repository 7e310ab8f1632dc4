// After the console's own navigation (a link, Back, Forward), focus moves to the new page's heading,
// as a full page load would put a screen reader at the top of the new page: it reads the page's name,
// and the next Tab starts from there instead of from the link that was pressed.

/** Focuses the main heading once the new page has rendered. */
export function focusPageHeading(): void {
  requestAnimationFrame(() => {
    const heading = document.querySelector<HTMLElement>('main h1');
    if (heading === null) return;
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus();
  });
}
