import { createM2MClient } from 'virtual:request-validators';
import { type FormEvent, type ReactNode, useState } from 'react';
import type { ClientCreateRequest, GrantableScope, M2MClientCreated, WebChannel } from '../../api/types.ts';
import { useApp } from '../../app-context.ts';
import { ChannelSelect } from '../../components/ChannelSelect.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { describedBy, FieldErrorText } from '../../components/FieldError.tsx';
import { ScopeCheckboxes } from '../../components/ScopeCheckboxes.tsx';
import { SubmitButton } from '../../components/SubmitButton.tsx';
import { CLIENT_FIELD_LABELS } from '../../domain/clients.ts';
import { type ClientDraft, EMPTY_DRAFT } from '../../domain/replacement.ts';
import { useSubmission } from '../../forms/use-submission.ts';

const FIELDS = ['clientName', 'description', 'scopes', 'expiresInDays', 'channel'] as const;

export interface CreatedResult {
  readonly created: M2MClientCreated;
  /** The channel asked for, when binding it after creation failed. */
  readonly bindingFailure: { readonly channel: string; readonly error: unknown } | null;
}

export function CreateClientForm({
  channels,
  onCreated,
  onCancel,
  initial = EMPTY_DRAFT,
  heading = 'New client',
  intro,
}: {
  readonly channels: readonly WebChannel[];
  readonly onCreated: (result: CreatedResult) => void;
  readonly onCancel: () => void;
  /** The fields as the form opens (a duplicate starts from the old client's). */
  readonly initial?: ClientDraft;
  readonly heading?: string;
  readonly intro?: ReactNode;
}) {
  const { api } = useApp();
  const [clientName, setClientName] = useState(initial.clientName);
  const [description, setDescription] = useState(initial.description);
  const [scopes, setScopes] = useState<GrantableScope[]>([...initial.scopes]);
  const [expiresInDays, setExpiresInDays] = useState(initial.expiresInDays);
  const [channel, setChannel] = useState(initial.channel);
  const { busy, errors, fieldErrors, run, retry, accepts } = useSubmission(FIELDS);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: ClientCreateRequest = { clientName: clientName.trim(), scopes };
    if (description.trim() !== '') body.description = description.trim();
    if (expiresInDays.trim() !== '') body.expiresInDays = Number(expiresInDays);
    if (!accepts(createM2MClient, body, CLIENT_FIELD_LABELS)) return;
    return run(async () => {
      let created = await api.createClient(body);
      let bindingFailure: CreatedResult['bindingFailure'] = null;
      if (channel !== '') {
        try {
          const bound = await api.updateClient(created.clientId, { channel });
          created = { ...created, channel: bound.channel ?? channel };
        } catch (error) {
          bindingFailure = { channel, error };
        }
      }
      onCreated({ created, bindingFailure });
      setClientName('');
      setDescription('');
      setScopes(['products.read']);
      setExpiresInDays('');
      setChannel('');
    });
  };

  return (
    <section className="panel" aria-labelledby="new-client-heading">
      <h2 id="new-client-heading">{heading}</h2>
      {intro}
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="new-client-name">Client name</label>
          <input
            id="new-client-name"
            // The form opens on the administrator's request: take them to its first field.
            // biome-ignore lint/a11y/noAutofocus: opened by a click on "New client", not on page load.
            autoFocus
            type="text"
            value={clientName}
            autoComplete="off"
            onChange={(e) => setClientName(e.target.value)}
            {...describedBy('new-client-name-error', fieldErrors.clientName, 'new-client-name-hint')}
          />
          <p className="hint" id="new-client-name-hint">
            3–100 characters: letters, digits, spaces, hyphens and underscores.
          </p>
          <FieldErrorText id="new-client-name-error" messages={fieldErrors.clientName} />
        </div>
        <div className="field">
          <label htmlFor="new-client-description">Description (optional)</label>
          <textarea
            id="new-client-description"
            rows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            {...describedBy('new-client-description-error', fieldErrors.description)}
          />
          <FieldErrorText id="new-client-description-error" messages={fieldErrors.description} />
        </div>
        <ScopeCheckboxes
          idPrefix="new-client"
          value={scopes}
          onChange={setScopes}
          errors={fieldErrors.scopes}
        />
        <div className="field">
          <label htmlFor="new-client-expires">Expires in (days)</label>
          <input
            id="new-client-expires"
            type="number"
            inputMode="numeric"
            min={1}
            max={365}
            value={expiresInDays}
            onChange={(e) => setExpiresInDays(e.target.value)}
            {...describedBy('new-client-expires-error', fieldErrors.expiresInDays, 'new-client-expires-hint')}
          />
          <p className="hint" id="new-client-expires-hint">
            Optional, 1 to 365. Leave empty for a client that never expires.
          </p>
          <FieldErrorText id="new-client-expires-error" messages={fieldErrors.expiresInDays} />
        </div>
        <ChannelSelect
          id="new-client-channel"
          channels={channels}
          value={channel}
          onChange={setChannel}
          errors={fieldErrors.channel}
        />
        {errors !== null && (
          <ErrorAlert
            error={errors.error}
            title="The client was not created."
            extra={errors.unmatched}
            onRetry={retry}
            retryNote="If no answer came, the client may have been created all the same: look for it in the list first, or revoke the extra one afterwards."
          />
        )}
        <div className="button-row">
          <SubmitButton busy={busy}>{busy ? 'Creating…' : 'Create client'}</SubmitButton>
          <button type="button" className="button-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
