import './webhooks.css';
import { useCallback, useState } from 'react';
import type { Tagged } from '../../api/client.ts';
import type { WebhookSecretRotation, WebhookSubscription } from '../../api/webhook-types.ts';
import { DateTime } from '../../components/DateTime.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Loading } from '../../components/Loading.tsx';
import { NavLink } from '../../components/NavLink.tsx';
import { usePageTitle } from '../../components/SignedOutPages.tsx';
import { focusAfterRender } from '../../focus-on-navigation.ts';
import { useLoad } from '../../hooks.ts';
import { clientRoute, navigate, useWebhookIdInPath } from '../../routing.ts';
import { DeletePanel } from './DeletePanel.tsx';
import { DeliveryLog } from './DeliveryLog.tsx';
import { EditSubscriptionForm } from './EditSubscriptionForm.tsx';
import { OneTimeSecretPanel } from './OneTimeSecretPanel.tsx';
import { RotateSecretPanel } from './RotateSecretPanel.tsx';
import { StateAlert } from './StateAlert.tsx';
import { StateBadge } from './StateBadge.tsx';
import { clientNameOf, useAllClients, useWebhookApi } from './use-webhook-api.ts';
import { EVENT_TYPE_TEXT, lastErrorText, stateReason } from './webhook-rules.ts';

type Panel = 'edit' | 'rotate' | 'delete' | null;

/** The button a closed panel gives the focus back to. */
const PANEL_BUTTON: Readonly<Record<Exclude<Panel, null>, string>> = {
  edit: 'subscription-edit-button',
  rotate: 'subscription-rotate-button',
  delete: 'subscription-delete-button',
};

/** One subscription (`webhooks/<id>`): its fields and state, what can be done to it, its delivery log. */
export function WebhookDetailPage() {
  const id = useWebhookIdInPath() ?? '';
  const api = useWebhookApi();
  const clients = useAllClients();
  const load = useCallback((signal: AbortSignal) => api.getSubscription(id, signal), [api, id]);
  const [loaded, reload, patch] = useLoad(load);
  const [panel, setPanel] = useState<Panel>(null);
  const [rotation, setRotation] = useState<WebhookSecretRotation | null>(null);
  const [notice, setNotice] = useState('');
  const [toggling, setToggling] = useState(false);
  const [toggleError, setToggleError] = useState<unknown>(null);
  usePageTitle('Webhook subscription');

  const subscription = loaded.state === 'ready' ? loaded.value.value : null;
  const scopes =
    subscription !== null && clients.state === 'ready'
      ? (clients.value.find((c) => c.clientId === subscription.clientId)?.scopes ?? null)
      : null;

  const closePanel = (closed: Exclude<Panel, null>) => {
    setPanel(null);
    focusAfterRender(() => document.getElementById(PANEL_BUTTON[closed]));
  };
  const replace = (tagged: Tagged<WebhookSubscription>) => patch(() => tagged);

  const setEnabled = async (enabled: boolean) => {
    setNotice('');
    setToggleError(null);
    setToggling(true);
    try {
      replace(await api.patchSubscription(id, { enabled }));
      setNotice(
        enabled
          ? 'Enabled: deliveries that waited while it was disabled are sent now.'
          : 'Disabled: nothing is sent until it is enabled; events wait meanwhile.',
      );
      focusAfterRender(() => document.getElementById('subscription-toggle-button'));
    } catch (error) {
      setToggleError(error);
    } finally {
      setToggling(false);
    }
  };

  return (
    <>
      <p className="breadcrumb">
        <NavLink to="webhooks">All webhook subscriptions</NavLink>
      </p>
      <h1>Webhook subscription</h1>
      {loaded.state === 'loading' && <Loading label="Loading the subscription…" />}
      {loaded.state === 'error' && (
        <ErrorAlert error={loaded.error} title="The subscription could not be loaded." onRetry={reload} />
      )}
      {subscription !== null && (
        <>
          <StateAlert subscription={subscription} busy={toggling} onEnable={() => void setEnabled(true)} />
          {rotation !== null && (
            <OneTimeSecretPanel
              heading="Secret rotated — copy the new signing secret now"
              secret={rotation.secret}
              onDone={() => {
                setRotation(null);
                focusAfterRender(() => document.getElementById(PANEL_BUTTON.rotate));
              }}
            >
              <p data-testid="previous-secret-note">
                {rotation.previousSecretExpiresAt === null ? (
                  'The old secret no longer signs: deliveries carry the new signature only.'
                ) : (
                  <>
                    The old secret still signs deliveries until{' '}
                    <DateTime iso={rotation.previousSecretExpiresAt} />: install the new one at the receiver
                    before then.
                  </>
                )}
              </p>
            </OneTimeSecretPanel>
          )}
          <section className="panel" aria-labelledby="subscription-fields-heading">
            <h2 id="subscription-fields-heading">Details</h2>
            <dl className="details-list">
              <dt>Endpoint URL</dt>
              <dd>
                <code>{subscription.url}</code>
              </dd>
              <dt>Client</dt>
              <dd>
                <NavLink to={clientRoute(subscription.clientId)}>
                  {clientNameOf(clients, subscription.clientId)}
                </NavLink>{' '}
                · <code>{subscription.clientId}</code>
              </dd>
              <dt>State</dt>
              <dd>
                <StateBadge state={subscription.state} /> {stateReason(subscription)}
              </dd>
              <dt>Event types</dt>
              <dd>
                <ul className="plain-list">
                  {subscription.eventTypes.map((t) => (
                    <li key={t}>
                      <code>{t}</code>: {EVENT_TYPE_TEXT[t]}
                    </li>
                  ))}
                </ul>
              </dd>
              <dt>Description</dt>
              <dd>
                {subscription.description === null || subscription.description === ''
                  ? 'None'
                  : subscription.description}
              </dd>
              <dt>Last success</dt>
              <dd>
                <DateTime iso={subscription.lastSuccessAt} />
              </dd>
              <dt>Last failure</dt>
              <dd>
                <DateTime iso={subscription.lastFailureAt} />
                {subscription.lastError !== null && <> — {lastErrorText(subscription)}</>}
              </dd>
              {subscription.previousSecretExpiresAt !== null && (
                <>
                  <dt>Old secret signs until</dt>
                  <dd>
                    <DateTime iso={subscription.previousSecretExpiresAt} />
                  </dd>
                </>
              )}
              <dt>Created</dt>
              <dd>
                <DateTime iso={subscription.createdAt} /> by {subscription.createdBy.userName}
              </dd>
              <dt>Updated</dt>
              <dd>
                <DateTime iso={subscription.updatedAt} />
              </dd>
              <dt>Subscription ID</dt>
              <dd>
                <code>{subscription.id}</code>
              </dd>
            </dl>
            <p className="notice" role="status">
              {notice}
            </p>
            {toggleError !== null && (
              <ErrorAlert error={toggleError} title="The subscription was not changed." />
            )}
            <div className="button-row">
              <button
                id="subscription-toggle-button"
                type="button"
                className={subscription.enabled ? 'button-secondary' : 'button-primary'}
                onClick={() => void setEnabled(!subscription.enabled)}
                aria-disabled={toggling || undefined}
              >
                {subscription.enabled ? 'Disable' : 'Enable'}
              </button>
              <button
                id={PANEL_BUTTON.edit}
                type="button"
                className="button-secondary"
                aria-expanded={panel === 'edit'}
                onClick={() => setPanel(panel === 'edit' ? null : 'edit')}
              >
                Edit
              </button>
              <button
                id={PANEL_BUTTON.rotate}
                type="button"
                className="button-secondary"
                aria-expanded={panel === 'rotate'}
                onClick={() => setPanel(panel === 'rotate' ? null : 'rotate')}
              >
                Rotate secret
              </button>
              <button
                id={PANEL_BUTTON.delete}
                type="button"
                className="button-danger-outline"
                aria-expanded={panel === 'delete'}
                onClick={() => setPanel(panel === 'delete' ? null : 'delete')}
              >
                Delete
              </button>
            </div>
            {panel === 'edit' && (
              <EditSubscriptionForm
                subscription={subscription}
                scopes={scopes}
                onCancel={() => closePanel('edit')}
                onSaved={(saved) => {
                  replace(saved);
                  setNotice('The subscription was updated.');
                  closePanel('edit');
                }}
              />
            )}
            {panel === 'rotate' && (
              <RotateSecretPanel
                subscriptionId={subscription.id}
                onCancel={() => closePanel('rotate')}
                onRotated={(result) => {
                  setPanel(null);
                  setRotation(result);
                  reload();
                }}
              />
            )}
            {panel === 'delete' && (
              <DeletePanel
                subscriptionId={subscription.id}
                url={subscription.url}
                onCancel={() => closePanel('delete')}
                onDeleted={() => navigate('webhooks')}
              />
            )}
          </section>
          <DeliveryLog subscriptionId={subscription.id} />
        </>
      )}
    </>
  );
}
