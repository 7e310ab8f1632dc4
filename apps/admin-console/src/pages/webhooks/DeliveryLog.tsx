import { useCallback, useEffect, useState } from 'react';
import type { WebhookDelivery, WebhookDeliveryStatus } from '../../api/webhook-types.ts';
import { DateTime } from '../../components/DateTime.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Loading } from '../../components/Loading.tsx';
import { TableRegion } from '../../components/TableRegion.tsx';
import { RedeliverRangeForm } from './RedeliverRangeForm.tsx';
import { useWebhookApi } from './use-webhook-api.ts';
import { DELIVERY_STATUSES } from './webhook-rules.ts';

const PAGE_SIZE = 50;

type Log =
  | { readonly state: 'loading' }
  | { readonly state: 'error'; readonly error: unknown }
  | {
      readonly state: 'ready';
      readonly deliveries: readonly WebhookDelivery[];
      readonly nextBefore: string | null;
    };

/** "—" for a value the delivery does not have yet. */
const orDash = (value: number | string | null) => (value === null ? '—' : String(value));

/**
 * The subscription's deliveries, newest first, a page at a time ("Show older" follows `nextBefore`),
 * filtered by status; Refresh shows what the delivery worker did since. Redeliver sends one again.
 */
export function DeliveryLog({ subscriptionId }: { readonly subscriptionId: string }) {
  const api = useWebhookApi();
  const [status, setStatus] = useState<WebhookDeliveryStatus | ''>('');
  const [log, setLog] = useState<Log>({ state: 'loading' });
  const [generation, setGeneration] = useState(0);
  const [older, setOlder] = useState<{ busy: boolean; error: unknown }>({ busy: false, error: null });
  const [notice, setNotice] = useState('');
  const [redeliverError, setRedeliverError] = useState<unknown>(null);
  const statusQuery = status === '' ? undefined : status;

  useEffect(() => {
    void generation;
    const controller = new AbortController();
    setOlder({ busy: false, error: null });
    api.listDeliveries(subscriptionId, { status: statusQuery, limit: PAGE_SIZE }, controller.signal).then(
      (page) => {
        if (!controller.signal.aborted)
          setLog({ state: 'ready', deliveries: page.deliveries, nextBefore: page.nextBefore });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setLog({ state: 'error', error });
      },
    );
    return () => controller.abort();
  }, [api, subscriptionId, statusQuery, generation]);

  const refresh = useCallback(() => setGeneration((n) => n + 1), []);

  const showOlder = async () => {
    if (log.state !== 'ready' || log.nextBefore === null) return;
    setOlder({ busy: true, error: null });
    try {
      const page = await api.listDeliveries(subscriptionId, {
        status: statusQuery,
        before: log.nextBefore,
        limit: PAGE_SIZE,
      });
      setLog({
        state: 'ready',
        deliveries: [...log.deliveries, ...page.deliveries],
        nextBefore: page.nextBefore,
      });
      setOlder({ busy: false, error: null });
    } catch (error) {
      setOlder({ busy: false, error });
    }
  };

  const redeliver = async (delivery: WebhookDelivery) => {
    setNotice('');
    setRedeliverError(null);
    try {
      const { queued } = await api.redeliver(subscriptionId, { deliveryId: delivery.id });
      setNotice(
        queued === 0
          ? `The ${delivery.eventType} event of ${delivery.entityId} is still waiting to be sent: nothing to queue again.`
          : `The ${delivery.eventType} event of ${delivery.entityId} was queued again.`,
      );
      refresh();
    } catch (error) {
      setRedeliverError(error);
    }
  };

  return (
    <section className="panel" aria-labelledby="delivery-log-heading">
      <h2 id="delivery-log-heading">Delivery log</h2>
      <p className="hint">
        One row per event sent to this endpoint, newest first. A failed attempt is retried for 24 hours.
      </p>
      <div className="filters">
        <div className="field">
          <label htmlFor="delivery-status-filter">Status</label>
          <select
            id="delivery-status-filter"
            value={status}
            onChange={(e) => setStatus(e.target.value as WebhookDeliveryStatus | '')}
          >
            <option value="">All</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className="button-secondary" onClick={refresh}>
          Refresh
        </button>
      </div>
      <p className="notice" role="status">
        {notice}
      </p>
      {redeliverError !== null && <ErrorAlert error={redeliverError} title="Nothing was queued again." />}
      {log.state === 'loading' && <Loading label="Loading deliveries…" />}
      {log.state === 'error' && (
        <ErrorAlert error={log.error} title="The delivery log could not be loaded." onRetry={refresh} />
      )}
      {log.state === 'ready' && log.deliveries.length === 0 && (
        <p className="empty">
          {status === ''
            ? 'Nothing delivered yet: deliveries start with the next catalogue change.'
            : `No ${status} delivery.`}
        </p>
      )}
      {log.state === 'ready' && log.deliveries.length > 0 && (
        <DeliveryTable deliveries={log.deliveries} onRedeliver={(d) => void redeliver(d)} />
      )}
      {log.state === 'ready' && log.nextBefore !== null && (
        <div className="button-row">
          <button
            type="button"
            className="button-secondary"
            onClick={showOlder}
            aria-disabled={older.busy || undefined}
          >
            Show older deliveries
          </button>
        </div>
      )}
      {older.error !== null && (
        <ErrorAlert error={older.error} title="Older deliveries could not be loaded." />
      )}
      <RedeliverRangeForm
        subscriptionId={subscriptionId}
        onQueued={({ queued }) => {
          setNotice(
            queued === 1 ? '1 delivery was queued again.' : `${queued} deliveries were queued again.`,
          );
          refresh();
        }}
      />
    </section>
  );
}

function DeliveryTable({
  deliveries,
  onRedeliver,
}: {
  readonly deliveries: readonly WebhookDelivery[];
  readonly onRedeliver: (delivery: WebhookDelivery) => void;
}) {
  return (
    <TableRegion label="Deliveries table">
      <table className="data-table delivery-table card-table">
        <caption className="visually-hidden">Deliveries, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Entity</th>
            <th scope="col">Occurred</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last status code</th>
            <th scope="col">Latency</th>
            <th scope="col">Last error</th>
            <th scope="col">Next attempt</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => (
            <tr key={delivery.id} data-delivery-id={delivery.id} data-status={delivery.status}>
              <th scope="row">
                <code>{delivery.eventType}</code>
              </th>
              <td data-label="Entity" className="entity">
                <code>{delivery.entityId}</code>
              </td>
              <td data-label="Occurred" className="date">
                <DateTime iso={delivery.occurredAt} />
              </td>
              <td data-label="Status">
                <span className={`delivery-status delivery-status-${delivery.status}`}>
                  {delivery.status}
                </span>
              </td>
              <td data-label="Attempts">{delivery.attempts}</td>
              <td data-label="Last status code">{orDash(delivery.lastStatusCode)}</td>
              <td data-label="Latency">
                {delivery.lastLatencyMs === null ? '—' : `${delivery.lastLatencyMs.toLocaleString('en')} ms`}
              </td>
              <td data-label="Last error" className="error-text">
                {orDash(delivery.lastError)}
              </td>
              <td data-label="Next attempt" className="date">
                <DateTime iso={delivery.nextAttemptAt} none="—" />
              </td>
              <td className="row-menu">
                <button type="button" className="button-small" onClick={() => onRedeliver(delivery)}>
                  Redeliver
                  <span className="visually-hidden">
                    {' '}
                    the {delivery.eventType} event of {delivery.entityId}
                  </span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
