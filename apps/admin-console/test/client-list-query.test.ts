import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIST_QUERY,
  parseListQuery,
  serializeListQuery,
  withFilter,
  withSort,
} from '../src/domain/client-list-query.ts';

describe('the clients list state in the URL query', () => {
  it('the default list has an empty query, and an empty query is the default list', () => {
    expect(serializeListQuery(DEFAULT_LIST_QUERY)).toBe('');
    expect(parseListQuery('')).toEqual(DEFAULT_LIST_QUERY);
  });

  it('every filter, the sort and the page survive a round trip through the URL', () => {
    const query = {
      filter: {
        status: 'active',
        text: 'web shop',
        scope: 'brands.read',
        channel: 'eu-shop',
        expiry: 'soon',
      },
      sort: { key: 'name', direction: 'asc' },
      page: 3,
    } as const;
    const search = serializeListQuery(query);
    expect(search).toBe(
      '?status=active&q=web+shop&scope=brands.read&channel=eu-shop&expiry=soon&sort=name&page=3',
    );
    expect(parseListQuery(search)).toEqual(query);
  });

  it('a descending sort is written with a leading minus', () => {
    expect(serializeListQuery({ ...DEFAULT_LIST_QUERY, sort: { key: 'lastUsed', direction: 'desc' } })).toBe(
      '?sort=-lastUsed',
    );
    expect(parseListQuery('?sort=-expires').sort).toEqual({ key: 'expires', direction: 'desc' });
  });

  it('a value the console does not know (an old or edited link) falls back to its default', () => {
    expect(parseListQuery('?status=paused&scope=clients.write&expiry=later&sort=-secret&page=-2')).toEqual(
      DEFAULT_LIST_QUERY,
    );
    expect(parseListQuery('?page=two').page).toBe(1);
  });

  it('a changed filter or sort goes back to page 1', () => {
    const onPage3 = { ...DEFAULT_LIST_QUERY, page: 3 };
    expect(withFilter(onPage3, { scope: 'products.read' }).page).toBe(1);
    expect(withSort(onPage3, { key: 'name', direction: 'asc' }).page).toBe(1);
    expect(withFilter(onPage3, { text: 'erp' }).filter).toEqual({
      ...DEFAULT_LIST_QUERY.filter,
      text: 'erp',
    });
  });
});
