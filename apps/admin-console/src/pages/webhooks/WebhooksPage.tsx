import './webhooks.css';
import { useCallback, useState } from 'react';
import type { WebhookSubscription, WebhookSubscriptionCreated } from '../../api/webhook-types.ts';
import { DateTime } from '../../components/DateTime.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Loading } from '../../components/Loading.tsx';
import { NavLink } from '../../components/NavLink.tsx';
import { usePageTitle } from '../../components/SignedOutPages.tsx';
import { focusAfterRender } from '../../focus-on-navigation.ts';
import { useLoad } from '../../hooks.ts';
import { setLocationSearch, useLocationSearch } from '../../routing.ts';
import { CreateSubscriptionForm } from './CreateSubscriptionForm.tsx';
import { OneTimeSecretPanel } from './OneTimeSecretPanel.tsx';
import { type SubscriptionAction, SubscriptionTable } from './SubscriptionTable.tsx';
import { clientNameOf, useAllClients, useWebhookApi } from './use-webhook-api.ts';
import { webhookRoute } from './webhook-rules.ts';

/** `?clientId=…`: the list of one client's subscriptions (a link or a reload keeps it). */
function clientFilterOf(search: string): string {
  return new URLSearchParams(search).get('clientId') ?? '';
}

/** `webhooks`: every subscription (or one client's), a new one with its one-time secret. */
export function WebhooksPage() {
  usePageTitle('Webhooks');
  const api = useWebhookApi();
  const clients = useAllClients();
  const clientFilter = clientFilterOf(useLocationSearch());
  const load = useCallback(
    (signal: AbortSignal) => api.listSubscriptions(clientFilter === '' ? null : clientFilter, signal),
    [api, clientFilter],
  );
  const [list, reload, patch] = useLoad(load);
  const [formOpen, setFormOpen] = useState(false);
  const [created, setCreated] = useState<WebhookSubscriptionCreated | null>(null);
  const [notice, setNotice] = useState('');
  const [actionError, setActionError] = useState<unknown>(null);

  const activeClients = clients.state === 'ready' ? clients.value.filter((c) => c.status === 'active') : [];
  const subscriptions = list.state === 'ready' ? list.value.subscriptions : null;

  const filterBy = (clientId: string) =>
    setLocationSearch(clientId === '' ? '' : `?${new URLSearchParams({ clientId })}`, 'replace');

  const onAction = async (subscription: WebhookSubscription, action: SubscriptionAction) => {
    setNotice('');
    setActionError(null);
    try {
      const { value } = await api.patchSubscription(subscription.id, { enabled: action === 'enable' });
      patch((current) => ({
        ...current,
        subscriptions: current.subscriptions.map((s) => (s.id === value.id ? value : s)),
      }));
      setNotice(`${value.url} was ${action === 'enable' ? 'enabled' : 'disabled'}.`);
    } catch (error) {
      setActionError(error);
    }
    focusAfterRender(() =>
      document.querySelector<HTMLButtonElement>(
        `tr[data-subscription-id="${subscription.id}"] .row-menu button`,
      ),
    );
  };

  const onCreated = (result: WebhookSubscriptionCreated) => {
    setFormOpen(false);
    setCreated(result);
    setNotice('');
    const { secret: _secret, ...subscription } = result;
    patch((current) => ({
      ...current,
      subscriptions: [...current.subscriptions, subscription],
      count: current.count + 1,
    }));
    reload();
  };

  return (
    <>
      <div className="page-head">
        <h1>Webhooks</h1>
        <button
          id="new-subscription-button"
          type="button"
          className="button-primary"
          aria-expanded={formOpen}
          aria-controls="new-subscription-panel"
          onClick={() => setFormOpen((open) => !open)}
        >
          New subscription
        </button>
      </div>
      <p className="lead">
        Signed notifications of catalogue changes, sent to an integrator’s HTTPS endpoint for one of its
        clients. The receiver then reads the product with that client’s token.
      </p>
      {created !== null && (
        <OneTimeSecretPanel
          heading="Subscription created — copy the signing secret now"
          secret={created.secret}
          onDone={() => {
            setCreated(null);
            focusAfterRender(() => document.getElementById('new-subscription-button'));
          }}
        >
          <dl className="details-list">
            <dt>Endpoint</dt>
            <dd>
              <NavLink to={webhookRoute(created.id)}>{created.url}</NavLink>
            </dd>
            <dt>Client</dt>
            <dd>
              {clientNameOf(clients, created.clientId)} · <code>{created.clientId}</code>
            </dd>
            <dt>Event types</dt>
            <dd>{created.eventTypes.join(', ')}</dd>
            <dt>Subscription ID</dt>
            <dd>
              <code data-testid="subscription-id">{created.id}</code>
            </dd>
            <dt>Delivers</dt>
            <dd>
              changes committed from <DateTime iso={created.createdAt} /> on
            </dd>
          </dl>
        </OneTimeSecretPanel>
      )}
      <div id="new-subscription-panel">
        {formOpen && clients.state === 'error' && (
          <ErrorAlert error={clients.error} title="The clients could not be loaded." />
        )}
        {formOpen && clients.state === 'loading' && <Loading label="Loading clients…" />}
        {formOpen && clients.state === 'ready' && activeClients.length === 0 && (
          <p className="empty">No active client: create a client first, then subscribe its endpoint.</p>
        )}
        {formOpen && activeClients.length > 0 && (
          <CreateSubscriptionForm
            clients={activeClients}
            initialClientId={clientFilter}
            onCancel={() => {
              setFormOpen(false);
              focusAfterRender(() => document.getElementById('new-subscription-button'));
            }}
            onCreated={onCreated}
          />
        )}
      </div>
      <section className="panel" aria-labelledby="subscriptions-heading">
        <h2 id="subscriptions-heading">Subscriptions</h2>
        <div className="filters">
          <div className="field">
            <label htmlFor="webhooks-client-filter">Client</label>
            <select
              id="webhooks-client-filter"
              value={clientFilter}
              onChange={(e) => filterBy(e.target.value)}
            >
              <option value="">All clients</option>
              {clients.state === 'ready' &&
                clients.value.map((client) => (
                  <option key={client.clientId} value={client.clientId}>
                    {client.clientName} ({client.status}) · {client.clientId}
                  </option>
                ))}
              {clients.state === 'ready' &&
                clientFilter !== '' &&
                !clients.value.some((c) => c.clientId === clientFilter) && (
                  <option value={clientFilter}>{clientFilter}</option>
                )}
            </select>
          </div>
        </div>
        <p className="notice" role="status">
          {notice}
        </p>
        {actionError !== null && <ErrorAlert error={actionError} title="The subscription was not changed." />}
        {list.state === 'loading' && <Loading label="Loading subscriptions…" />}
        {list.state === 'error' && (
          <ErrorAlert error={list.error} title="The subscriptions could not be loaded." onRetry={reload} />
        )}
        {subscriptions !== null && subscriptions.length === 0 && (
          <p className="empty">
            {clientFilter === ''
              ? 'No subscription yet — subscribe an integrator’s endpoint with New subscription.'
              : 'This client has no subscription.'}
          </p>
        )}
        {subscriptions !== null && subscriptions.length > 0 && (
          <SubscriptionTable
            subscriptions={subscriptions}
            clients={clients}
            onAction={(subscription, action) => void onAction(subscription, action)}
          />
        )}
      </section>
    </>
  );
}
