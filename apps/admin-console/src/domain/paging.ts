// One page of a list, and the words that say where it is.

export const PAGE_SIZE = 25;

export interface Page<T> {
  readonly items: readonly T[];
  /** 1-based, clamped to the pages there are (a shared link may name a page that has gone). */
  readonly page: number;
  readonly pageCount: number;
  /** 1-based positions of the first and last item shown; 0 and 0 for an empty list. */
  readonly first: number;
  readonly last: number;
  readonly total: number;
}

export function pageOf<T>(items: readonly T[], requested: number, size = PAGE_SIZE): Page<T> {
  const pageCount = Math.max(1, Math.ceil(items.length / size));
  const page = Math.min(Math.max(1, Math.trunc(requested) || 1), pageCount);
  const start = (page - 1) * size;
  const shown = items.slice(start, start + size);
  return {
    items: shown,
    page,
    pageCount,
    first: shown.length === 0 ? 0 : start + 1,
    last: start + shown.length,
    total: items.length,
  };
}

/** "Showing 26–50 of 200 clients". */
export function showingText(page: Page<unknown>, noun: string, nouns: string): string {
  return `Showing ${page.first}–${page.last} of ${page.total} ${page.total === 1 ? noun : nouns}`;
}
