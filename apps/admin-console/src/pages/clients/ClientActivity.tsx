import { useCallback } from 'react';
import { useApp } from '../../app-context.ts';
import { DateTime } from '../../components/DateTime.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Loading } from '../../components/Loading.tsx';
import { TableRegion } from '../../components/TableRegion.tsx';
import { activityText, actorName } from '../../domain/audit-activity.ts';
import { useLoad } from '../../hooks.ts';

/** A client's page shows its recent history; the whole trail is the operator's (GET /audit-events). */
const RECENT_EVENTS = 50;

/** Who did what to the client and when, newest first, from the audit trail. */
export function ClientActivity({ clientId }: { readonly clientId: string }) {
  const { api } = useApp();
  const load = useCallback(
    (signal: AbortSignal) => api.listClientEvents(clientId, RECENT_EVENTS, signal),
    [api, clientId],
  );
  const [events] = useLoad(load);
  return (
    <section className="panel" aria-labelledby="client-activity-heading">
      <h2 id="client-activity-heading">Recent activity</h2>
      {events.state === 'loading' && <Loading label="Loading the activity…" />}
      {events.state === 'error' && (
        <ErrorAlert error={events.error} title="The activity could not be loaded." />
      )}
      {events.state === 'ready' && events.value.events.length === 0 && (
        <p className="empty">No activity recorded.</p>
      )}
      {events.state === 'ready' && events.value.events.length > 0 && (
        <>
          <TableRegion label="Activity table">
            <table className="data-table activity-table card-table">
              <caption className="visually-hidden">Activity, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                </tr>
              </thead>
              <tbody>
                {events.value.events.map((event) => (
                  <tr key={event.id}>
                    <td data-label="When" className="date">
                      <DateTime iso={event.occurredAt} />
                    </td>
                    <td data-label="Who" className="actor">
                      {actorName(event.actor)}
                    </td>
                    <td data-label="What">{activityText(event)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
          {events.value.nextBefore !== null && (
            <p className="hint">The {RECENT_EVENTS} most recent events are shown.</p>
          )}
        </>
      )}
    </section>
  );
}
