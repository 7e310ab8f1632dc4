import './clients-list.css';
import { Fragment } from 'react';
import type { M2MClient } from '../../api/types.ts';
import { DateTime } from '../../components/DateTime.tsx';
import { type MenuAction, MenuButton } from '../../components/MenuButton.tsx';
import { NavLink } from '../../components/NavLink.tsx';
import { TableRegion } from '../../components/TableRegion.tsx';
import type { ClientSort, SortKey } from '../../domain/client-sort.ts';
import { clientBadges, displayStatus } from '../../domain/clients.ts';
import { clientRoute } from '../../routing.ts';
import { SortHeader } from './SortHeader.tsx';
import { USAGE_LEGEND_ID } from './UsageLegend.tsx';

export type RowAction = 'edit' | 'duplicate' | 'revoke';
export type RowPanel = { readonly kind: 'edit' | 'revoke'; readonly clientId: string } | null;

const COLUMN_COUNT = 9;

/** What can be done to a client: a revoked (or expired) one can still be replaced, not changed. */
function rowActions(client: M2MClient, onAction: (action: RowAction) => void): MenuAction[] {
  const duplicate = { label: 'Duplicate…', onSelect: () => onAction('duplicate') };
  if (client.status !== 'active') return [duplicate];
  return [
    { label: 'Edit', onSelect: () => onAction('edit') },
    duplicate,
    { label: 'Revoke', onSelect: () => onAction('revoke'), danger: true },
  ];
}

export function ClientTable({
  clients,
  nowMs,
  sort,
  onSort,
  panel,
  onAction,
  renderPanel,
}: {
  readonly clients: readonly M2MClient[];
  readonly nowMs: number;
  readonly sort: ClientSort;
  readonly onSort: (key: SortKey) => void;
  readonly panel: RowPanel;
  readonly onAction: (client: M2MClient, action: RowAction) => void;
  readonly renderPanel: (client: M2MClient) => React.ReactNode;
}) {
  const header = (label: string, key: SortKey) => (
    <SortHeader label={label} sortKey={key} sort={sort} onSort={onSort} />
  );
  return (
    <TableRegion label="Clients table">
      <table className="data-table client-table card-table" aria-describedby={USAGE_LEGEND_ID}>
        <caption className="visually-hidden">Integrators’ clients</caption>
        <thead>
          <tr>
            {header('Name', 'name')}
            <th scope="col">Status</th>
            <th scope="col">Scopes</th>
            <th scope="col">Channel</th>
            {header('Created', 'created')}
            {header('Expires', 'expires')}
            <th scope="col">API calls</th>
            {header('Last token', 'lastUsed')}
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {clients.map((client) => {
            const badges = clientBadges(client, nowMs);
            const status = displayStatus(client, nowMs);
            return (
              <Fragment key={client.clientId}>
                <tr
                  className={badges.length > 0 ? 'row-attention' : undefined}
                  data-client-id={client.clientId}
                >
                  <th scope="row" className="client-name">
                    <span className="name">
                      <NavLink to={clientRoute(client.clientId)}>{client.clientName}</NavLink>
                    </span>
                    {client.description !== undefined && client.description !== '' && (
                      <span className="description">{client.description}</span>
                    )}
                    <span className="client-id">
                      <span className="visually-hidden">Client ID </span>
                      <code>{client.clientId}</code>
                    </span>
                    {badges.map((badge) => (
                      <span key={badge.kind} className={`badge badge-${badge.kind}`}>
                        {badge.text}
                      </span>
                    ))}
                  </th>
                  <td data-label="Status">
                    <span className={`status status-${status}`}>{status}</span>
                    {client.status === 'revoked' && (
                      <span className="revoked-by">
                        Revoked by {client.revokedBy?.userName ?? 'an administrator'} on{' '}
                        <DateTime iso={client.revokedAt} none="an unknown date" />
                      </span>
                    )}
                  </td>
                  <td data-label="Scopes">{client.scopes.join(', ')}</td>
                  <td data-label="Channel">{client.channel ?? 'Unbound'}</td>
                  <td data-label="Created" className="date">
                    <DateTime iso={client.createdAt} />
                  </td>
                  <td data-label="Expires" className="date">
                    <DateTime iso={client.expiresAt} />
                  </td>
                  <td data-label="API calls">{client.usageCount.toLocaleString('en')}</td>
                  <td data-label="Last token" className="date">
                    <DateTime iso={client.lastUsedAt} />
                  </td>
                  <td className="row-menu">
                    <MenuButton
                      label="Actions"
                      labelSuffix={`for ${client.clientName}`}
                      actions={rowActions(client, (action) => onAction(client, action))}
                    />
                  </td>
                </tr>
                {panel !== null && panel.clientId === client.clientId && (
                  <tr className="panel-row">
                    <td colSpan={COLUMN_COUNT}>{renderPanel(client)}</td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </TableRegion>
  );
}
