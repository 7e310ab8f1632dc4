import { useCallback } from 'react';
import type { M2MClient } from '../api/types.ts';
import { useApp } from '../app-context.ts';
import { DateTime } from '../components/DateTime.tsx';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { Loading } from '../components/Loading.tsx';
import { NavLink } from '../components/NavLink.tsx';
import { usePageTitle } from '../components/SignedOutPages.tsx';
import { clientBadges, displayStatus } from '../domain/clients.ts';
import { useLoad } from '../hooks.ts';
import { useClientIdInPath } from '../routing.ts';
import { ClientActivity } from './clients/ClientActivity.tsx';
import { UsageLegend } from './clients/UsageLegend.tsx';

/** One client's page (`clients/<clientId>`): every field, its status and its recent activity. */
export function ClientDetailPage() {
  const clientId = useClientIdInPath() ?? '';
  const { api } = useApp();
  const load = useCallback((signal: AbortSignal) => api.getClient(clientId, signal), [api, clientId]);
  const [client] = useLoad(load);
  const name = client.state === 'ready' ? client.value.value.clientName : 'Client';
  usePageTitle(name);
  return (
    <>
      <p className="breadcrumb">
        <NavLink to="clients">All clients</NavLink>
      </p>
      <h1>{name}</h1>
      {client.state === 'loading' && <Loading label="Loading the client…" />}
      {client.state === 'error' && (
        <ErrorAlert error={client.error} title="The client could not be loaded." />
      )}
      {client.state === 'ready' && <ClientFields client={client.value.value} />}
      <ClientActivity clientId={clientId} />
    </>
  );
}

function ClientFields({ client }: { readonly client: M2MClient }) {
  const nowMs = Date.now();
  const status = displayStatus(client, nowMs);
  return (
    <section className="panel" aria-labelledby="client-fields-heading">
      <h2 id="client-fields-heading">Details</h2>
      <dl className="details-list">
        <dt>Client ID</dt>
        <dd>
          <code>{client.clientId}</code>
        </dd>
        <dt>Status</dt>
        <dd>
          <span className={`status status-${status}`}>{status}</span>
          {clientBadges(client, nowMs).map((badge) => (
            <span key={badge.kind} className={`badge badge-${badge.kind}`}>
              {badge.text}
            </span>
          ))}
        </dd>
        <dt>Description</dt>
        <dd>{client.description === undefined || client.description === '' ? 'None' : client.description}</dd>
        <dt>Scopes</dt>
        <dd>{client.scopes.join(', ')}</dd>
        <dt>Channel</dt>
        <dd>{client.channel ?? 'Unbound'}</dd>
        <dt>Created</dt>
        <dd>
          <DateTime iso={client.createdAt} /> by {client.createdBy.userName}
        </dd>
        <dt>Expires</dt>
        <dd>
          <DateTime iso={client.expiresAt} />
        </dd>
        {client.status === 'revoked' && (
          <>
            <dt>Revoked</dt>
            <dd>
              <DateTime iso={client.revokedAt} none="at an unknown time" /> by{' '}
              {client.revokedBy?.userName ?? 'an administrator'}
            </dd>
          </>
        )}
        <dt>API calls</dt>
        <dd>{client.usageCount.toLocaleString('en')}</dd>
        <dt>Last token</dt>
        <dd>
          <DateTime iso={client.lastUsedAt} />
        </dd>
      </dl>
      <UsageLegend id="client-usage-legend" />
    </section>
  );
}
