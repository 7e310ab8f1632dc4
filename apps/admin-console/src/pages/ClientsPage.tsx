import { useCallback, useMemo, useState } from 'react';
import type { M2MClient } from '../api/types.ts';
import { useApp } from '../app-context.ts';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { Loading } from '../components/Loading.tsx';
import { usePageTitle } from '../components/SignedOutPages.tsx';
import {
  type ClientSort,
  filterClients,
  formatDateTime,
  type StatusFilter,
  sortClients,
} from '../domain/clients.ts';
import { useLoad } from '../hooks.ts';
import { ClientTable, type RowPanel } from './clients/ClientTable.tsx';
import { CreateClientForm, type CreatedResult } from './clients/CreateClientForm.tsx';
import { CreatedClientPanel } from './clients/CreatedClientPanel.tsx';
import { EditClientForm } from './clients/EditClientForm.tsx';
import { RevokePanel } from './clients/RevokePanel.tsx';
import { RotatePanel } from './clients/RotatePanel.tsx';
import { useChannelOptions } from './clients/use-channels.ts';

export function ClientsPage() {
  usePageTitle('Clients');
  const { api } = useApp();
  const load = useCallback((signal: AbortSignal) => api.listClients('all', signal), [api]);
  const [list, reload, patch] = useLoad(load);
  const replaceClient = (clientId: string, update: (client: M2MClient) => M2MClient) =>
    patch((value) => ({
      ...value,
      clients: value.clients.map((c) => (c.clientId === clientId ? update(c) : c)),
    }));
  const { channels } = useChannelOptions();
  const [status, setStatus] = useState<StatusFilter>('all');
  const [text, setText] = useState('');
  const [sort, setSort] = useState<ClientSort>('created-desc');
  const [panel, setPanel] = useState<RowPanel>(null);
  const [created, setCreated] = useState<CreatedResult | null>(null);
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState('');

  const all = list.state === 'ready' ? list.value.clients : null;
  const shown = useMemo(
    () => (all === null ? [] : sortClients(filterClients(all, { status, text }, Date.now()), sort)),
    [all, status, text, sort],
  );
  const nowMs = Date.now();

  const openPanel = (next: RowPanel) => {
    setNotice('');
    setPanel((current) =>
      current !== null && next !== null && current.kind === next.kind && current.clientId === next.clientId
        ? null
        : next,
    );
  };

  const renderPanel = (client: M2MClient) => {
    if (panel === null) return null;
    if (panel.kind === 'edit')
      return (
        <EditClientForm
          client={client}
          channels={channels}
          onCancel={() => setPanel(null)}
          onSaved={(saved) => {
            setPanel(null);
            setNotice(`${saved.clientName} was updated.`);
            replaceClient(saved.clientId, () => saved);
            reload();
          }}
        />
      );
    if (panel.kind === 'rotate') return <RotatePanel client={client} onClose={() => setPanel(null)} />;
    return (
      <RevokePanel
        client={client}
        onCancel={() => setPanel(null)}
        onRevoked={(revocation) => {
          setPanel(null);
          replaceClient(revocation.clientId, (c) => ({
            ...c,
            status: 'revoked',
            revokedAt: revocation.revokedAt,
            revokedBy: revocation.revokedBy,
          }));
          setNotice(
            `${revocation.clientName} was revoked by ${revocation.revokedBy.userName} on ${formatDateTime(revocation.revokedAt)}. ${revocation.note}`,
          );
          reload();
        }}
      />
    );
  };

  return (
    <>
      <div className="page-head">
        <h1>Clients</h1>
        <button
          type="button"
          className="button-primary"
          aria-expanded={creating}
          aria-controls="new-client-panel"
          onClick={() => setCreating((open) => !open)}
        >
          New client
        </button>
      </div>
      <p className="lead">
        OAuth clients of the integrators: who can read the catalogue, with which scopes and for which web
        channel.
      </p>
      {created !== null && <CreatedClientPanel result={created} onDone={() => setCreated(null)} />}
      <div id="new-client-panel">
        {creating && (
          <CreateClientForm
            channels={channels}
            onCancel={() => setCreating(false)}
            onCreated={(result) => {
              setCreating(false);
              setCreated(result);
              setNotice('');
              const {
                clientSecret: _secret,
                tokenEndpoint: _endpoint,
                warning: _warning,
                ...client
              } = result.created;
              patch((value) => ({
                ...value,
                clients: [client as M2MClient, ...value.clients],
                count: value.count + 1,
              }));
              reload();
            }}
          />
        )}
      </div>
      <section className="panel" aria-labelledby="clients-list-heading">
        <h2 id="clients-list-heading">All clients</h2>
        <div className="filters">
          <div className="field">
            <label htmlFor="clients-status">Status</label>
            <select
              id="clients-status"
              value={status}
              onChange={(e) => setStatus(e.target.value as StatusFilter)}
            >
              <option value="all">All</option>
              <option value="active">Active</option>
              <option value="expired">Expired</option>
              <option value="revoked">Revoked</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="clients-search">Search clients</label>
            <input
              id="clients-search"
              type="search"
              value={text}
              placeholder="Name, description, client ID or channel"
              onChange={(e) => setText(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="clients-sort">Sort by</label>
            <select id="clients-sort" value={sort} onChange={(e) => setSort(e.target.value as ClientSort)}>
              <option value="created-desc">Newest first</option>
              <option value="last-used-desc">Last used: most recent first</option>
              <option value="last-used-asc">Last used: least recent first</option>
            </select>
          </div>
        </div>
        <p className="notice" role="status">
          {notice}
        </p>
        {list.state === 'loading' && <Loading label="Loading clients…" />}
        {list.state === 'error' && <ErrorAlert error={list.error} title="The clients could not be loaded." />}
        {all !== null && all.length === 0 && <p className="empty">No clients yet — create the first one.</p>}
        {all !== null && all.length > 0 && shown.length === 0 && (
          <p className="empty">No client matches these filters.</p>
        )}
        {all !== null && shown.length > 0 && (
          <>
            <p className="count">
              Showing {shown.length} of {all.length} {all.length === 1 ? 'client' : 'clients'}.
            </p>
            <ClientTable
              clients={shown}
              nowMs={nowMs}
              panel={panel}
              onOpenPanel={openPanel}
              renderPanel={renderPanel}
            />
          </>
        )}
      </section>
    </>
  );
}
