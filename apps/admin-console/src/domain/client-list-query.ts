// The clients list's state (filters, sort, page) as the URL's query, so that a reload, Back and a
// shared link show the same list. Defaults are left out of the URL; a value the console does not
// know (an old or hand-edited link) falls back to its default instead of failing.

import { type ClientFilter, type ExpiryFilter, NO_FILTER, type StatusFilter } from './client-filters.ts';
import { type ClientSort, DEFAULT_SORT, SORT_KEYS, type SortKey } from './client-sort.ts';
import { isGrantableScope } from './scopes.ts';

export interface ClientListQuery {
  readonly filter: ClientFilter;
  readonly sort: ClientSort;
  readonly page: number;
}

export const DEFAULT_LIST_QUERY: ClientListQuery = { filter: NO_FILTER, sort: DEFAULT_SORT, page: 1 };

const STATUSES: readonly StatusFilter[] = ['all', 'active', 'expired', 'revoked'];
const EXPIRIES: readonly ExpiryFilter[] = ['any', 'soon', 'never', 'past'];

function oneOf<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** `sort=name` ascending, `sort=-created` descending. */
function parseSort(value: string | null): ClientSort {
  if (value === null) return DEFAULT_SORT;
  const descending = value.startsWith('-');
  const key = descending ? value.slice(1) : value;
  if (!(SORT_KEYS as readonly string[]).includes(key)) return DEFAULT_SORT;
  return { key: key as SortKey, direction: descending ? 'desc' : 'asc' };
}

export function parseListQuery(search: string): ClientListQuery {
  const params = new URLSearchParams(search);
  const scope = params.get('scope') ?? '';
  const page = Number.parseInt(params.get('page') ?? '', 10);
  return {
    filter: {
      status: oneOf(params.get('status'), STATUSES, NO_FILTER.status),
      text: params.get('q') ?? '',
      scope: isGrantableScope(scope) ? scope : '',
      channel: params.get('channel') ?? '',
      expiry: oneOf(params.get('expiry'), EXPIRIES, NO_FILTER.expiry),
    },
    sort: parseSort(params.get('sort')),
    page: Number.isSafeInteger(page) && page > 1 ? page : 1,
  };
}

/** `?status=…&q=…` with the defaults left out; '' for the default list. */
export function serializeListQuery(query: ClientListQuery): string {
  const { filter, sort, page } = query;
  const params = new URLSearchParams();
  if (filter.status !== NO_FILTER.status) params.set('status', filter.status);
  if (filter.text !== '') params.set('q', filter.text);
  if (filter.scope !== '') params.set('scope', filter.scope);
  if (filter.channel !== '') params.set('channel', filter.channel);
  if (filter.expiry !== NO_FILTER.expiry) params.set('expiry', filter.expiry);
  if (sort.key !== DEFAULT_SORT.key || sort.direction !== DEFAULT_SORT.direction)
    params.set('sort', `${sort.direction === 'desc' ? '-' : ''}${sort.key}`);
  if (page > 1) params.set('page', String(page));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** A changed filter or sort starts again at page 1: page 3 of another list means nothing. */
export function withFilter(query: ClientListQuery, filter: Partial<ClientFilter>): ClientListQuery {
  return { ...query, filter: { ...query.filter, ...filter }, page: 1 };
}

export function withSort(query: ClientListQuery, sort: ClientSort): ClientListQuery {
  return { ...query, sort, page: 1 };
}
