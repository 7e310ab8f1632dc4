import type { WebChannel } from '../../api/types.ts';
import {
  type ClientFilter,
  type ExpiryFilter,
  type StatusFilter,
  UNBOUND,
} from '../../domain/client-filters.ts';
import { type ClientSort, SORT_KEYS, type SortDirection, type SortKey } from '../../domain/client-sort.ts';
import { GRANTABLE_SCOPES, isGrantableScope } from '../../domain/scopes.ts';

const SORT_LABELS: Readonly<Record<SortKey, Record<SortDirection, string>>> = {
  name: { asc: 'Name A–Z', desc: 'Name Z–A' },
  created: { desc: 'Newest first', asc: 'Oldest first' },
  lastUsed: { desc: 'Last token: most recent first', asc: 'Last token: least recent first' },
  expires: { asc: 'Expires: soonest first', desc: 'Expires: latest first' },
};

/**
 * The list's filters and its order. The order is also set by the column headers; this select is the
 * way to it where the table is shown as cards (a narrow screen has no header row).
 */
export function ClientFilters({
  filter,
  sort,
  channels,
  onFilter,
  onSort,
}: {
  readonly filter: ClientFilter;
  readonly sort: ClientSort;
  readonly channels: readonly WebChannel[];
  readonly onFilter: (change: Partial<ClientFilter>) => void;
  readonly onSort: (sort: ClientSort) => void;
}) {
  return (
    <div className="filters">
      <div className="field">
        <label htmlFor="clients-search">Search clients</label>
        <input
          id="clients-search"
          type="search"
          value={filter.text}
          placeholder="Name, description, client ID or channel"
          onChange={(e) => onFilter({ text: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor="clients-status">Status</label>
        <select
          id="clients-status"
          value={filter.status}
          onChange={(e) => onFilter({ status: e.target.value as StatusFilter })}
        >
          <option value="all">All</option>
          <option value="active">Active</option>
          <option value="expired">Expired</option>
          <option value="revoked">Revoked</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="clients-scope">Scope</label>
        <select
          id="clients-scope"
          value={filter.scope}
          onChange={(e) => onFilter({ scope: isGrantableScope(e.target.value) ? e.target.value : '' })}
        >
          <option value="">Any scope</option>
          {GRANTABLE_SCOPES.map((scope) => (
            <option key={scope} value={scope}>
              {scope}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="clients-channel">Channel</label>
        <select
          id="clients-channel"
          value={filter.channel}
          onChange={(e) => onFilter({ channel: e.target.value })}
        >
          <option value="">Any channel</option>
          <option value={UNBOUND}>Unbound</option>
          {channels.map((channel) => (
            <option key={channel.slug} value={channel.slug}>
              {channel.slug}
            </option>
          ))}
          {/* A link may name a channel before the registry has loaded: keep it chosen meanwhile. */}
          {filter.channel !== '' &&
            filter.channel !== UNBOUND &&
            !channels.some((channel) => channel.slug === filter.channel) && (
              <option value={filter.channel}>{filter.channel}</option>
            )}
        </select>
      </div>
      <div className="field">
        <label htmlFor="clients-expiry">Expiry</label>
        <select
          id="clients-expiry"
          value={filter.expiry}
          onChange={(e) => onFilter({ expiry: e.target.value as ExpiryFilter })}
        >
          <option value="any">Any</option>
          <option value="soon">Expiring within 14 days</option>
          <option value="never">No expiry</option>
          <option value="past">Expired</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="clients-sort">Sort by</label>
        <select
          id="clients-sort"
          value={`${sort.key} ${sort.direction}`}
          onChange={(e) => {
            const [key, direction] = e.target.value.split(' ') as [SortKey, SortDirection];
            onSort({ key, direction });
          }}
        >
          {SORT_KEYS.flatMap((key) =>
            (['asc', 'desc'] as const).map((direction) => (
              <option key={`${key} ${direction}`} value={`${key} ${direction}`}>
                {SORT_LABELS[key][direction]}
              </option>
            )),
          )}
        </select>
      </div>
    </div>
  );
}
