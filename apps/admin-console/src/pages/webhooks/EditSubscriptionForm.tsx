import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { isChangedElsewhere, type Tagged } from '../../api/client.ts';
import type {
  WebhookEventType,
  WebhookSubscription,
  WebhookSubscriptionPatch,
} from '../../api/webhook-types.ts';
import { closeOnEscape } from '../../components/close-on-escape.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { describedBy, FieldErrorText } from '../../components/FieldError.tsx';
import { SubmitButton } from '../../components/SubmitButton.tsx';
import { useSubmission } from '../../forms/use-submission.ts';
import { EventTypeCheckboxes } from './EventTypeCheckboxes.tsx';
import { useWebhookApi } from './use-webhook-api.ts';

const FIELDS = ['url', 'eventTypes', 'description'] as const;
const prefix = 'edit-subscription';

interface Draft {
  readonly url: string;
  readonly eventTypes: readonly WebhookEventType[];
  readonly description: string;
}

/** The merge patch of the fields that differ from the subscription (empty when nothing changed). */
export function changedFields(subscription: WebhookSubscription, next: Draft): WebhookSubscriptionPatch {
  const body: WebhookSubscriptionPatch = {};
  if (next.url.trim() !== subscription.url) body.url = next.url.trim();
  const sameEvents =
    next.eventTypes.length === subscription.eventTypes.length &&
    next.eventTypes.every((t) => subscription.eventTypes.includes(t));
  if (!sameEvents) body.eventTypes = [...next.eventTypes];
  const description = next.description.trim() === '' ? null : next.description.trim();
  if (description !== (subscription.description ?? null)) body.description = description;
  return body;
}

/**
 * Edits the endpoint, event types and description of the version this form loaded (its ETag as
 * If-Match): another administrator's change since is refused (412), never overwritten.
 */
export function EditSubscriptionForm({
  subscription,
  scopes,
  onSaved,
  onCancel,
}: {
  readonly subscription: WebhookSubscription;
  /** The client's scopes, which bound the event types (null while unknown). */
  readonly scopes: readonly string[] | null;
  readonly onSaved: (saved: Tagged<WebhookSubscription>) => void;
  readonly onCancel: () => void;
}) {
  const api = useWebhookApi();
  const [base, setBase] = useState<Tagged<WebhookSubscription> | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [url, setUrl] = useState(subscription.url);
  const [eventTypes, setEventTypes] = useState<WebhookEventType[]>([...subscription.eventTypes]);
  const [description, setDescription] = useState(subscription.description ?? '');
  const { busy, errors, fieldErrors, run, retry } = useSubmission(FIELDS);
  const [notice, setNotice] = useState('');

  const open = useCallback(
    (signal?: AbortSignal) =>
      api.getSubscription(subscription.id, signal).then(
        (tagged) => {
          setBase(tagged);
          setLoadError(null);
          setUrl(tagged.value.url);
          setEventTypes([...tagged.value.eventTypes]);
          setDescription(tagged.value.description ?? '');
        },
        (error: unknown) => {
          if (!signal?.aborted) setLoadError(error);
        },
      ),
    [api, subscription.id],
  );
  useEffect(() => {
    const controller = new AbortController();
    void open(controller.signal);
    return () => controller.abort();
  }, [open]);
  // The fields open once the current version is in: the first of them takes the focus after the
  // render that enabled it (an autofocus, or a focus timed by the next frame, can find it still
  // disabled on a busy machine: the focus then stays on the Edit button).
  const loaded = base !== null;
  const focusedOnOpen = useRef(false);
  useEffect(() => {
    if (!loaded || focusedOnOpen.current) return;
    focusedOnOpen.current = true;
    document.getElementById(`${prefix}-url`)?.focus();
  }, [loaded]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNotice('');
    if (base === null) return;
    const wanted = { url, eventTypes, description };
    const body = changedFields(base.value, wanted);
    if (Object.keys(body).length === 0) {
      setNotice('Nothing changed: change at least one field.');
      return;
    }
    // No browser check before sending: the contract's validator for this body cannot be compiled for the
    // browser yet (its URL format needs ajv-formats, which the standalone build does not
    // import). The API's refusal is shown the same way, each message next to its field.
    return run(async () => {
      try {
        onSaved(await api.patchSubscription(subscription.id, body, base.etag));
      } catch (error) {
        // A save that timed out may have landed before its retry: when the newer version already is
        // what this form asks for, the save is done, not refused.
        if (!isChangedElsewhere(error)) throw error;
        const current = await api.getSubscription(subscription.id);
        if (Object.keys(changedFields(current.value, wanted)).length > 0) throw error;
        onSaved(current);
      }
    });
  };
  const reload = () => {
    setNotice('');
    return run(() => open());
  };
  const changedElsewhere = errors !== null && isChangedElsewhere(errors.error);

  return (
    <section className="panel" aria-labelledby={`${prefix}-heading`} onKeyDown={closeOnEscape(onCancel)}>
      <h2 id={`${prefix}-heading`}>Edit subscription</h2>
      <form onSubmit={submit} noValidate>
        <fieldset
          className="bare-fieldset"
          disabled={base === null || busy}
          aria-busy={base === null || busy}
        >
          <div className="field">
            <label htmlFor={`${prefix}-url`}>Endpoint URL</label>
            <input
              id={`${prefix}-url`}
              type="url"
              inputMode="url"
              value={url}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => setUrl(e.target.value)}
              {...describedBy(`${prefix}-url-error`, fieldErrors.url)}
            />
            <FieldErrorText id={`${prefix}-url-error`} messages={fieldErrors.url} />
          </div>
          <EventTypeCheckboxes
            idPrefix={prefix}
            value={eventTypes}
            onChange={setEventTypes}
            scopes={scopes}
            errors={fieldErrors.eventTypes}
          />
          <div className="field">
            <label htmlFor={`${prefix}-description`}>Description</label>
            <textarea
              id={`${prefix}-description`}
              rows={2}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              {...describedBy(`${prefix}-description-error`, fieldErrors.description)}
            />
            <FieldErrorText id={`${prefix}-description-error`} messages={fieldErrors.description} />
          </div>
        </fieldset>
        {notice !== '' && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        {loadError !== null && <ErrorAlert error={loadError} title="The subscription could not be loaded." />}
        {changedElsewhere && (
          <div className="alert alert-error" role="alert">
            <p className="alert-title">The subscription was not updated.</p>
            <p>
              It was changed by someone else since you opened it. Reload to see their changes (yours are
              discarded), then edit again.
            </p>
            <button type="button" className="button-secondary" onClick={reload} disabled={busy}>
              Reload
            </button>
          </div>
        )}
        {errors !== null && !changedElsewhere && (
          <ErrorAlert
            error={errors.error}
            title="The subscription was not updated."
            extra={errors.unmatched}
            onRetry={retry}
          />
        )}
        <p className="visually-hidden" role="status">
          {busy ? 'Saving…' : ''}
        </p>
        <div className="button-row">
          <SubmitButton busy={busy} disabled={base === null}>
            Save changes
          </SubmitButton>
          <button type="button" className="button-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
