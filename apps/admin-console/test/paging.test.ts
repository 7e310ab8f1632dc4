import { describe, expect, it } from 'vitest';
import { pageOf, showingText } from '../src/domain/paging.ts';

const items = Array.from({ length: 200 }, (_, i) => i + 1);

describe('paging a list', () => {
  it('25 a page: page 2 of 200 shows items 26 to 50 and says so', () => {
    const page = pageOf(items, 2);
    expect(page.items).toEqual(items.slice(25, 50));
    expect(page).toMatchObject({ page: 2, pageCount: 8, first: 26, last: 50, total: 200 });
    expect(showingText(page, 'client', 'clients')).toBe('Showing 26–50 of 200 clients');
  });

  it('the last page may be short', () => {
    const page = pageOf(items.slice(0, 60), 3);
    expect(page).toMatchObject({ first: 51, last: 60, pageCount: 3 });
  });

  it('a page that does not exist (a link to a list that has shrunk) shows the nearest one', () => {
    expect(pageOf(items.slice(0, 30), 9).page).toBe(2);
    expect(pageOf(items, 0).page).toBe(1);
    expect(pageOf(items, Number.NaN).page).toBe(1);
  });

  it('an empty list is one empty page', () => {
    const page = pageOf([], 1);
    expect(page).toMatchObject({ items: [], page: 1, pageCount: 1, first: 0, last: 0, total: 0 });
  });

  it('one item is named in the singular', () => {
    expect(showingText(pageOf([1], 1), 'client', 'clients')).toBe('Showing 1–1 of 1 client');
  });
});
