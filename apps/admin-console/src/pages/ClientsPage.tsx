import { useCallback, useMemo, useState } from 'react';
import type { ClientRevocation, M2MClient } from '../api/types.ts';
import { useApp } from '../app-context.ts';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { Loading } from '../components/Loading.tsx';
import { usePageTitle } from '../components/SignedOutPages.tsx';
import { filterClients } from '../domain/client-filters.ts';
import { withFilter, withSort } from '../domain/client-list-query.ts';
import { sortClients, toggleSort } from '../domain/client-sort.ts';
import { formatDateTime } from '../domain/date-time.ts';
import { pageOf } from '../domain/paging.ts';
import { lifetimeDays, replacementDraft } from '../domain/replacement.ts';
import { focusAfterRender } from '../focus-on-navigation.ts';
import { useLoad } from '../hooks.ts';
import { ClientFilters } from './clients/ClientFilters.tsx';
import { ClientPager } from './clients/ClientPager.tsx';
import { ClientTable, type RowAction, type RowPanel } from './clients/ClientTable.tsx';
import { CreateClientForm, type CreatedResult } from './clients/CreateClientForm.tsx';
import { CreatedClientPanel } from './clients/CreatedClientPanel.tsx';
import { EditClientForm } from './clients/EditClientForm.tsx';
import { type Replacement, ReplacementSteps } from './clients/ReplacementSteps.tsx';
import { RevokePanel } from './clients/RevokePanel.tsx';
import { UsageLegend } from './clients/UsageLegend.tsx';
import { useChannelOptions } from './clients/use-channels.ts';
import { useClientListQuery } from './clients/use-client-list-query.ts';

/** The create form: empty for a new client, or filled in from the client it replaces. */
type CreateForm =
  | { readonly kind: 'new' }
  | { readonly kind: 'duplicate'; readonly client: M2MClient }
  | null;

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
  const [query, setQuery] = useClientListQuery();
  const [panel, setPanel] = useState<RowPanel>(null);
  const [form, setForm] = useState<CreateForm>(null);
  const [created, setCreated] = useState<CreatedResult | null>(null);
  const [replacement, setReplacement] = useState<Replacement | null>(null);
  const [notice, setNotice] = useState('');

  const all = list.state === 'ready' ? list.value.clients : null;
  const nowMs = Date.now();
  const shown = useMemo(
    () =>
      all === null
        ? null
        : pageOf(sortClients(filterClients(all, query.filter, Date.now()), query.sort), query.page),
    [all, query],
  );

  const onAction = (client: M2MClient, action: RowAction) => {
    setNotice('');
    if (action === 'duplicate') {
      setPanel(null);
      setForm({ kind: 'duplicate', client });
      return;
    }
    setPanel({ kind: action, clientId: client.clientId });
  };

  const markRevoked = (revocation: ClientRevocation) => {
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
  };

  // A closed panel gives the focus back to where the administrator opened it: the row's Actions
  // button (the row stays, revoked or updated), else the page would drop it to <body>.
  const closePanel = (clientId: string) => {
    setPanel(null);
    focusAfterRender(() =>
      document.querySelector<HTMLButtonElement>(`tr[data-client-id="${clientId}"] .row-menu button`),
    );
  };

  const renderPanel = (client: M2MClient) => {
    if (panel === null) return null;
    if (panel.kind === 'edit')
      return (
        <EditClientForm
          client={client}
          channels={channels}
          onCancel={() => closePanel(client.clientId)}
          onSaved={(saved) => {
            closePanel(client.clientId);
            setNotice(`${saved.clientName} was updated.`);
            replaceClient(saved.clientId, () => saved);
            reload();
          }}
        />
      );
    return (
      <RevokePanel
        client={client}
        onCancel={() => closePanel(client.clientId)}
        onRevoked={(revocation) => {
          closePanel(client.clientId);
          markRevoked(revocation);
        }}
      />
    );
  };

  const onCreated = (result: CreatedResult) => {
    if (form?.kind === 'duplicate') setReplacement({ old: form.client, created: result.created });
    setForm(null);
    setCreated(result);
    setNotice('');
    const { clientSecret: _secret, tokenEndpoint: _endpoint, warning: _warning, ...client } = result.created;
    patch((value) => ({
      ...value,
      clients: [client as M2MClient, ...value.clients],
      count: value.count + 1,
    }));
    reload();
  };

  return (
    <>
      <div className="page-head">
        <h1>Clients</h1>
        <button
          id="new-client-button"
          type="button"
          className="button-primary"
          aria-expanded={form?.kind === 'new'}
          aria-controls="new-client-panel"
          onClick={() => setForm((open) => (open?.kind === 'new' ? null : { kind: 'new' }))}
        >
          New client
        </button>
      </div>
      <p className="lead">
        OAuth clients of the integrators: who can read the catalogue, with which scopes and for which web
        channel.
      </p>
      {created !== null && (
        <CreatedClientPanel
          result={created}
          onDone={() => {
            setCreated(null);
            focusAfterRender(() => document.getElementById('new-client-button'));
          }}
        />
      )}
      {replacement !== null && (
        <ReplacementSteps
          replacement={replacement}
          onRevoked={markRevoked}
          onClose={() => setReplacement(null)}
        />
      )}
      <div id="new-client-panel">
        {form !== null && (
          <CreateClientForm
            key={form.kind === 'new' ? 'new' : form.client.clientId}
            channels={channels}
            onCancel={() => setForm(null)}
            onCreated={onCreated}
            {...(form.kind === 'duplicate' ? duplicateFormProps(form.client) : {})}
          />
        )}
      </div>
      <section className="panel" aria-labelledby="clients-list-heading">
        <h2 id="clients-list-heading">All clients</h2>
        <ClientFilters
          filter={query.filter}
          sort={query.sort}
          channels={channels}
          onFilter={(change) => setQuery(withFilter(query, change), 'replace')}
          onSort={(sort) => setQuery(withSort(query, sort), 'replace')}
        />
        <p className="notice" role="status">
          {notice}
        </p>
        <UsageLegend />
        {list.state === 'loading' && <Loading label="Loading clients…" />}
        {list.state === 'error' && <ErrorAlert error={list.error} title="The clients could not be loaded." />}
        {all !== null && all.length === 0 && <p className="empty">No clients yet — create the first one.</p>}
        {all !== null && all.length > 0 && shown?.total === 0 && (
          <p className="empty">No client matches these filters.</p>
        )}
        {shown !== null && shown.total > 0 && (
          <>
            <ClientTable
              clients={shown.items}
              nowMs={nowMs}
              sort={query.sort}
              onSort={(key) => setQuery(withSort(query, toggleSort(query.sort, key)), 'replace')}
              panel={panel}
              onAction={onAction}
              renderPanel={renderPanel}
            />
            <ClientPager page={shown} onPage={(page) => setQuery({ ...query, page }, 'push')} />
          </>
        )}
      </section>
    </>
  );
}

/** The create form filled in from `client`, saying why a replacement rather than a new secret. */
function duplicateFormProps(client: M2MClient) {
  const lifetime = lifetimeDays(client);
  return {
    initial: replacementDraft(client),
    heading: `Duplicate ${client.clientName}`,
    intro: (
      <p className="hint">
        A secret is never rotated in place: create this replacement with the same fields, move the integration
        to it, then revoke {client.clientName}. An expiry cannot be extended either: the replacement’s counts
        from its creation
        {lifetime === '' ? ' (this one never expires).' : ` (${lifetime} days, as the old client had).`}
      </p>
    ),
  };
}
