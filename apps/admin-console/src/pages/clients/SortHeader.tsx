import type { ClientSort, SortKey } from '../../domain/client-sort.ts';

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

/** A column header that sorts: a button in the cell, and aria-sort on the cell of the sorted column. */
export function SortHeader({
  label,
  sortKey,
  sort,
  onSort,
}: {
  readonly label: string;
  readonly sortKey: SortKey;
  readonly sort: ClientSort;
  readonly onSort: (key: SortKey) => void;
}) {
  const sorted = sort.key === sortKey;
  return (
    <th scope="col" aria-sort={sorted ? ARIA_SORT[sort.direction] : undefined}>
      <button type="button" className="sort-button" onClick={() => onSort(sortKey)}>
        {label}
        <span className="sort-mark" aria-hidden="true">
          {sorted ? (sort.direction === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}
