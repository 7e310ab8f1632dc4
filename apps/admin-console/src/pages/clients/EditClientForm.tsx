import { updateM2MClient } from 'virtual:request-validators';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { isChangedElsewhere, type Tagged } from '../../api/client.ts';
import type { ClientUpdateRequest, GrantableScope, M2MClient, WebChannel } from '../../api/types.ts';
import { useApp } from '../../app-context.ts';
import { ChannelSelect } from '../../components/ChannelSelect.tsx';
import { closeOnEscape } from '../../components/close-on-escape.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { describedBy, FieldErrorText } from '../../components/FieldError.tsx';
import { ScopeCheckboxes } from '../../components/ScopeCheckboxes.tsx';
import { SubmitButton } from '../../components/SubmitButton.tsx';
import { CLIENT_FIELD_LABELS } from '../../domain/clients.ts';
import { useSubmission } from '../../forms/use-submission.ts';

const FIELDS = ['clientName', 'description', 'scopes', 'channel'] as const;
export const NO_SCOPE_MESSAGE = 'Choose at least one scope: a client without scopes can obtain no token.';

/** Only the fields that differ from the client (an empty object when nothing changed). */
export function changedFields(
  client: M2MClient,
  next: { clientName: string; description: string; scopes: readonly GrantableScope[]; channel: string },
): ClientUpdateRequest {
  const body: ClientUpdateRequest = {};
  if (next.clientName.trim() !== client.clientName) body.clientName = next.clientName.trim();
  if (next.description.trim() !== (client.description ?? '')) body.description = next.description.trim();
  const sameScopes =
    next.scopes.length === client.scopes.length &&
    next.scopes.every((scope) => client.scopes.includes(scope));
  if (!sameScopes) body.scopes = [...next.scopes];
  const channel = next.channel === '' ? null : next.channel;
  if (channel !== (client.channel ?? null)) body.channel = channel;
  return body;
}

export function EditClientForm({
  client,
  channels,
  onSaved,
  onCancel,
}: {
  readonly client: M2MClient;
  readonly channels: readonly WebChannel[];
  readonly onSaved: (client: M2MClient) => void;
  readonly onCancel: () => void;
}) {
  const { api } = useApp();
  const prefix = `edit-${client.clientId}`;
  // The version this form edits: the client as the API has it now, with its ETag. A save is made
  // against that version only, so another administrator's change since is never overwritten.
  const [base, setBase] = useState<Tagged<M2MClient> | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [clientName, setClientName] = useState(client.clientName);
  const [description, setDescription] = useState(client.description ?? '');
  const [scopes, setScopes] = useState<GrantableScope[]>([...client.scopes]);
  const [channel, setChannel] = useState(client.channel ?? '');
  const { busy, errors, fieldErrors, run, retry, accepts } = useSubmission(FIELDS);
  const [notice, setNotice] = useState('');
  // Checked here first, as the API checks it: a client without scopes could obtain no token.
  const [noScope, setNoScope] = useState(false);

  const open = useCallback(
    (signal?: AbortSignal) =>
      api.getClient(client.clientId, signal).then(
        (tagged) => {
          const current = tagged.value;
          setBase(tagged);
          setLoadError(null);
          setClientName(current.clientName);
          setDescription(current.description ?? '');
          setScopes([...current.scopes]);
          setChannel(current.channel ?? '');
        },
        (error: unknown) => {
          if (!signal?.aborted) setLoadError(error);
        },
      ),
    [api, client.clientId],
  );
  useEffect(() => {
    const controller = new AbortController();
    void open(controller.signal);
    return () => controller.abort();
  }, [open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNotice('');
    if (base === null) return;
    setNoScope(scopes.length === 0);
    if (scopes.length === 0) return;
    const body = changedFields(base.value, { clientName, description, scopes, channel });
    if (Object.keys(body).length === 0) {
      setNotice('Nothing changed: change at least one field.');
      return;
    }
    if (!accepts(updateM2MClient, body, CLIENT_FIELD_LABELS)) return;
    const wanted = { clientName, description, scopes, channel };
    return run(async () => {
      try {
        onSaved(await api.updateClient(client.clientId, body, base.etag));
      } catch (error) {
        // A save that timed out may have landed before its retry: the retry then finds a newer version.
        // When that version already is what this form asks for, the save is done, not refused.
        if (!isChangedElsewhere(error)) throw error;
        const current = await api.getClient(client.clientId);
        if (Object.keys(changedFields(current.value, wanted)).length > 0) throw error;
        onSaved(current.value);
      }
    });
  };
  const reload = () => {
    setNotice('');
    return run(() => open());
  };
  const changedElsewhere = errors !== null && isChangedElsewhere(errors.error);

  return (
    <section
      className="inline-panel"
      aria-labelledby={`${prefix}-heading`}
      onKeyDown={closeOnEscape(onCancel)}
    >
      <h3 id={`${prefix}-heading`}>Edit {client.clientName}</h3>
      <form onSubmit={submit} noValidate>
        {/* Closed until the client's current version is in (on opening and on Reload), so nothing typed
            meanwhile is overwritten by it, and while a save runs. */}
        <fieldset
          className="bare-fieldset"
          disabled={base === null || busy}
          aria-busy={base === null || busy}
        >
          <div className="field">
            <label htmlFor={`${prefix}-name`}>Client name</label>
            <input
              id={`${prefix}-name`}
              type="text"
              value={clientName}
              autoComplete="off"
              onChange={(e) => setClientName(e.target.value)}
              {...describedBy(`${prefix}-name-error`, fieldErrors.clientName)}
            />
            <FieldErrorText id={`${prefix}-name-error`} messages={fieldErrors.clientName} />
          </div>
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
          <ScopeCheckboxes
            idPrefix={prefix}
            value={scopes}
            onChange={setScopes}
            errors={noScope ? [NO_SCOPE_MESSAGE] : fieldErrors.scopes}
          />
          <ChannelSelect
            id={`${prefix}-channel`}
            channels={channels}
            value={channel}
            onChange={setChannel}
            errors={fieldErrors.channel}
          />
        </fieldset>
        {notice !== '' && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        {loadError !== null && <ErrorAlert error={loadError} title="The client could not be loaded." />}
        {changedElsewhere && (
          <div className="alert alert-error" role="alert">
            <p className="alert-title">The client was not updated.</p>
            <p>
              {client.clientName} was changed by someone else since you opened it. Reload to see their changes
              (yours are discarded), then edit again.
            </p>
            <button type="button" className="button-secondary" onClick={reload} disabled={busy}>
              Reload
            </button>
          </div>
        )}
        {errors !== null && !changedElsewhere && (
          <ErrorAlert
            error={errors.error}
            title="The client was not updated."
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
