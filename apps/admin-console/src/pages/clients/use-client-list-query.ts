import { useCallback, useMemo } from 'react';
import { type ClientListQuery, parseListQuery, serializeListQuery } from '../../domain/client-list-query.ts';
import { setLocationSearch, useLocationSearch } from '../../routing.ts';

/** The clients list's state, held in the URL's query: the URL is the only copy, so they never disagree. */
export function useClientListQuery(): readonly [
  ClientListQuery,
  (next: ClientListQuery, mode: 'push' | 'replace') => void,
] {
  const search = useLocationSearch();
  const query = useMemo(() => parseListQuery(search), [search]);
  const update = useCallback(
    (next: ClientListQuery, mode: 'push' | 'replace') => setLocationSearch(serializeListQuery(next), mode),
    [],
  );
  return [query, update] as const;
}
