// The order of the clients list: by one column, either way. A client without the date (never used,
// never expires) goes last in both directions, so the clients the column says something about come first.
import type { M2MClient } from '../api/types.ts';

export const SORT_KEYS = ['name', 'created', 'lastUsed', 'expires'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDirection = 'asc' | 'desc';

export interface ClientSort {
  readonly key: SortKey;
  readonly direction: SortDirection;
}

export const DEFAULT_SORT: ClientSort = { key: 'created', direction: 'desc' };

/** The direction a column starts in when first chosen: names A–Z, dates newest first. */
export function firstDirection(key: SortKey): SortDirection {
  return key === 'name' ? 'asc' : 'desc';
}

/** A click on a column header: the other direction of the current column, else that column's first. */
export function toggleSort(current: ClientSort, key: SortKey): ClientSort {
  if (current.key !== key) return { key, direction: firstDirection(key) };
  return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
}

function dateOf(client: M2MClient, key: Exclude<SortKey, 'name'>): number | null {
  const iso =
    key === 'created' ? client.createdAt : key === 'lastUsed' ? client.lastUsedAt : client.expiresAt;
  return iso === null ? null : Date.parse(iso);
}

const byName = (a: M2MClient, b: M2MClient) =>
  a.clientName.localeCompare(b.clientName, 'en', { sensitivity: 'base' }) ||
  a.clientId.localeCompare(b.clientId);

/** Sorted copy; ties by name, then client id, so the order (and so the pages) is stable. */
export function sortClients(clients: readonly M2MClient[], sort: ClientSort): M2MClient[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...clients].sort((a, b) => {
    if (sort.key === 'name') return sign * byName(a, b);
    const da = dateOf(a, sort.key);
    const db = dateOf(b, sort.key);
    if (da === null || db === null) return (da === null ? 1 : 0) - (db === null ? 1 : 0) || byName(a, b);
    return sign * (da - db) || byName(a, b);
  });
}
