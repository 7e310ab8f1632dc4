import { Fragment } from 'react';
import type { M2MClient } from '../../api/types.ts';
import { TableRegion } from '../../components/TableRegion.tsx';
import { clientBadges, displayStatus, formatDate } from '../../domain/clients.ts';

export type RowPanel = { readonly kind: 'edit' | 'rotate' | 'revoke'; readonly clientId: string } | null;

const COLUMN_COUNT = 9;

export function ClientTable({
  clients,
  nowMs,
  panel,
  onOpenPanel,
  renderPanel,
}: {
  readonly clients: readonly M2MClient[];
  readonly nowMs: number;
  readonly panel: RowPanel;
  readonly onOpenPanel: (panel: RowPanel) => void;
  readonly renderPanel: (client: M2MClient) => React.ReactNode;
}) {
  return (
    <TableRegion label="Clients table">
      <table className="data-table">
        <caption className="visually-hidden">Integrators’ clients</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Scopes</th>
            <th scope="col">Channel</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Usage</th>
            <th scope="col">Last used</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {clients.map((client) => {
            const badges = clientBadges(client, nowMs);
            const open = panel !== null && panel.clientId === client.clientId;
            return (
              <Fragment key={client.clientId}>
                <tr className={badges.length > 0 ? 'row-attention' : undefined}>
                  <th scope="row" className="client-name">
                    <span className="name">{client.clientName}</span>
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
                  <td>
                    <span className={`status status-${displayStatus(client, nowMs)}`}>
                      {displayStatus(client, nowMs)}
                    </span>
                    {client.status === 'revoked' && (
                      <span className="revoked-by">
                        Revoked by {client.revokedBy?.userName ?? 'an administrator'} on{' '}
                        {formatDate(client.revokedAt)}
                      </span>
                    )}
                  </td>
                  <td>{client.scopes.join(', ')}</td>
                  <td>{client.channel ?? 'Unbound'}</td>
                  <td className="date">{formatDate(client.createdAt)}</td>
                  <td className="date">{formatDate(client.expiresAt)}</td>
                  <td>{client.usageCount.toLocaleString('en')}</td>
                  <td className="date">{formatDate(client.lastUsedAt)}</td>
                  <td>
                    {client.status === 'active' && (
                      <div className="row-actions">
                        <RowButton
                          label="Edit"
                          client={client}
                          expanded={open && panel.kind === 'edit'}
                          onClick={() => onOpenPanel({ kind: 'edit', clientId: client.clientId })}
                        />
                        <RowButton
                          label="Rotate secret"
                          client={client}
                          expanded={open && panel.kind === 'rotate'}
                          onClick={() => onOpenPanel({ kind: 'rotate', clientId: client.clientId })}
                        />
                        <RowButton
                          label="Revoke"
                          client={client}
                          danger
                          expanded={open && panel.kind === 'revoke'}
                          onClick={() => onOpenPanel({ kind: 'revoke', clientId: client.clientId })}
                        />
                      </div>
                    )}
                  </td>
                </tr>
                {open && (
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

function RowButton({
  label,
  client,
  expanded,
  danger = false,
  onClick,
}: {
  readonly label: string;
  readonly client: M2MClient;
  readonly expanded: boolean;
  readonly danger?: boolean;
  readonly onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={danger ? 'button-small button-danger-outline' : 'button-small'}
      aria-expanded={expanded}
      onClick={onClick}
    >
      {label}
      <span className="visually-hidden"> {client.clientName}</span>
    </button>
  );
}
