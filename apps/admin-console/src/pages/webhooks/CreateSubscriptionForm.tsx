import { type FormEvent, useState } from 'react';
import type { M2MClient } from '../../api/types.ts';
import type {
  WebhookEventType,
  WebhookSubscriptionCreated,
  WebhookSubscriptionCreateRequest,
} from '../../api/webhook-types.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { describedBy, FieldErrorText } from '../../components/FieldError.tsx';
import { SubmitButton } from '../../components/SubmitButton.tsx';
import { useSubmission } from '../../forms/use-submission.ts';
import { EventTypeCheckboxes } from './EventTypeCheckboxes.tsx';
import { useWebhookApi } from './use-webhook-api.ts';
import { eventTypeRefusal } from './webhook-rules.ts';

const FIELDS = ['clientId', 'url', 'eventTypes', 'description'] as const;

/** A new subscription of an active client's HTTPS endpoint; the API answers with its one-time secret. */
export function CreateSubscriptionForm({
  clients,
  initialClientId,
  onCreated,
  onCancel,
}: {
  /** The active clients, the only ones the API subscribes. */
  readonly clients: readonly M2MClient[];
  readonly initialClientId: string;
  readonly onCreated: (created: WebhookSubscriptionCreated) => void;
  readonly onCancel: () => void;
}) {
  const api = useWebhookApi();
  const [clientId, setClientId] = useState(
    clients.some((c) => c.clientId === initialClientId) ? initialClientId : '',
  );
  const [url, setUrl] = useState('');
  const [eventTypes, setEventTypes] = useState<WebhookEventType[]>([]);
  const [description, setDescription] = useState('');
  const { busy, errors, fieldErrors, run, retry } = useSubmission(FIELDS);
  const scopes = clients.find((c) => c.clientId === clientId)?.scopes ?? null;

  const chooseClient = (next: string) => {
    setClientId(next);
    // A type the new client may not receive is dropped rather than left ticked under a disabled box.
    const nextScopes = clients.find((c) => c.clientId === next)?.scopes ?? [];
    setEventTypes((current) => current.filter((t) => eventTypeRefusal(t, nextScopes) === null));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: WebhookSubscriptionCreateRequest = { clientId, url: url.trim(), eventTypes, enabled: true };
    if (description.trim() !== '') body.description = description.trim();
    // No browser check before sending: the contract's validator for this body cannot be compiled for the
    // browser yet (its URL format needs ajv-formats, which the standalone build does not
    // import). The API's refusal is shown the same way, each message next to its field.
    return run(async () => onCreated(await api.createSubscription(body)));
  };

  return (
    <section className="panel" aria-labelledby="new-subscription-heading">
      <h2 id="new-subscription-heading">New subscription</h2>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="new-subscription-client">Client</label>
          <select
            id="new-subscription-client"
            // biome-ignore lint/a11y/noAutofocus: opened by a click on "New subscription", not on page load.
            autoFocus
            value={clientId}
            onChange={(e) => chooseClient(e.target.value)}
            {...describedBy(
              'new-subscription-client-error',
              fieldErrors.clientId,
              'new-subscription-client-hint',
            )}
          >
            <option value="">Choose a client…</option>
            {clients.map((client) => (
              <option key={client.clientId} value={client.clientId}>
                {client.clientName} · {client.clientId}
              </option>
            ))}
          </select>
          <p className="hint" id="new-subscription-client-hint">
            Active clients only. The events it may receive follow its scopes.
          </p>
          <FieldErrorText id="new-subscription-client-error" messages={fieldErrors.clientId} />
        </div>
        <div className="field">
          <label htmlFor="new-subscription-url">Endpoint URL</label>
          <input
            id="new-subscription-url"
            type="url"
            inputMode="url"
            value={url}
            autoComplete="off"
            spellCheck={false}
            placeholder="https://integrator.example/hooks/catalog"
            onChange={(e) => setUrl(e.target.value)}
            {...describedBy('new-subscription-url-error', fieldErrors.url, 'new-subscription-url-hint')}
          />
          <p className="hint" id="new-subscription-url-hint">
            An https: URL on a public address, without user name or password. Redirects are not followed.
          </p>
          <FieldErrorText id="new-subscription-url-error" messages={fieldErrors.url} />
        </div>
        <EventTypeCheckboxes
          idPrefix="new-subscription"
          value={eventTypes}
          onChange={setEventTypes}
          scopes={scopes}
          errors={fieldErrors.eventTypes}
        />
        <div className="field">
          <label htmlFor="new-subscription-description">Description (optional)</label>
          <textarea
            id="new-subscription-description"
            rows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            {...describedBy('new-subscription-description-error', fieldErrors.description)}
          />
          <FieldErrorText id="new-subscription-description-error" messages={fieldErrors.description} />
        </div>
        {errors !== null && (
          <ErrorAlert
            error={errors.error}
            title="The subscription was not created."
            extra={errors.unmatched}
            onRetry={retry}
            retryNote="If no answer came, the subscription may have been created all the same: look for it in the list first, and delete the extra one."
          />
        )}
        <div className="button-row">
          <SubmitButton busy={busy}>{busy ? 'Creating…' : 'Create subscription'}</SubmitButton>
          <button type="button" className="button-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
