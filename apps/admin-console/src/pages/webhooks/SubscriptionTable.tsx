import '../clients/clients-list.css';
import './webhooks.css';
import type { M2MClient } from '../../api/types.ts';
import type { WebhookSubscription } from '../../api/webhook-types.ts';
import { DateTime } from '../../components/DateTime.tsx';
import { type MenuAction, MenuButton } from '../../components/MenuButton.tsx';
import { NavLink } from '../../components/NavLink.tsx';
import { TableRegion } from '../../components/TableRegion.tsx';
import type { Loadable } from '../../hooks.ts';
import { navigate } from '../../routing.ts';
import { StateBadge } from './StateBadge.tsx';
import { clientNameOf } from './use-webhook-api.ts';
import { lastErrorText, stateReason, webhookRoute } from './webhook-rules.ts';

export type SubscriptionAction = 'enable' | 'disable';

function rowActions(
  subscription: WebhookSubscription,
  onAction: (action: SubscriptionAction) => void,
): MenuAction[] {
  const open = { label: 'Open', onSelect: () => navigate(webhookRoute(subscription.id)) };
  return [
    open,
    subscription.enabled
      ? { label: 'Disable', onSelect: () => onAction('disable'), danger: true }
      : { label: 'Enable', onSelect: () => onAction('enable') },
  ];
}

/** The subscriptions: endpoint, client, event types, state with its reason and last error, last success. */
export function SubscriptionTable({
  subscriptions,
  clients,
  onAction,
}: {
  readonly subscriptions: readonly WebhookSubscription[];
  readonly clients: Loadable<readonly M2MClient[]>;
  readonly onAction: (subscription: WebhookSubscription, action: SubscriptionAction) => void;
}) {
  return (
    <TableRegion label="Webhook subscriptions table">
      <table className="data-table webhook-table card-table">
        <caption className="visually-hidden">Webhook subscriptions</caption>
        <thead>
          <tr>
            <th scope="col">Endpoint</th>
            <th scope="col">Client</th>
            <th scope="col">Event types</th>
            <th scope="col">State</th>
            <th scope="col">Last success</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {subscriptions.map((subscription) => {
            const clientName = clientNameOf(clients, subscription.clientId);
            return (
              <tr
                key={subscription.id}
                data-subscription-id={subscription.id}
                className={subscription.state === 'active' ? undefined : 'row-attention'}
              >
                <th scope="row" className="webhook-url">
                  <span className="name">
                    <NavLink to={webhookRoute(subscription.id)}>{subscription.url}</NavLink>
                  </span>
                  {subscription.description !== null && subscription.description !== '' && (
                    <span className="description">{subscription.description}</span>
                  )}
                </th>
                <td data-label="Client" className="webhook-client">
                  {clientName}
                  {clientName !== subscription.clientId && (
                    <span className="client-id">
                      <span className="visually-hidden">Client ID </span>
                      <code>{subscription.clientId}</code>
                    </span>
                  )}
                </td>
                <td data-label="Event types">{subscription.eventTypes.join(', ')}</td>
                <td data-label="State">
                  <StateBadge state={subscription.state} />
                  <span className="state-reason">{stateReason(subscription)}</span>
                  {subscription.state !== 'active' && subscription.lastError !== null && (
                    <span className="state-reason">{lastErrorText(subscription)}</span>
                  )}
                </td>
                <td data-label="Last success" className="date">
                  <DateTime iso={subscription.lastSuccessAt} />
                </td>
                <td className="row-menu">
                  <MenuButton
                    label="Actions"
                    labelSuffix={`for ${subscription.url}`}
                    actions={rowActions(subscription, (action) => onAction(subscription, action))}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableRegion>
  );
}
