import { type FormEvent, useState } from 'react';
import type { ClientRevocation, M2MClient } from '../../api/types.ts';
import { useApp } from '../../app-context.ts';
import { closeOnEscape } from '../../components/close-on-escape.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { SubmitButton } from '../../components/SubmitButton.tsx';
import { useSubmission } from '../../forms/use-submission.ts';

/** Revocation is irreversible: the administrator types the client's name to confirm. */
export function RevokePanel({
  client,
  onRevoked,
  onCancel,
}: {
  readonly client: M2MClient;
  readonly onRevoked: (revocation: ClientRevocation) => void;
  readonly onCancel: () => void;
}) {
  const { api } = useApp();
  const prefix = `revoke-${client.clientId}`;
  const [typed, setTyped] = useState('');
  const { busy, errors, run, retry } = useSubmission([]);
  const matches = typed === client.clientName;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!matches) return;
    return run(async () => onRevoked(await api.revokeClient(client.clientId)));
  };

  return (
    <section
      className="inline-panel inline-panel-danger"
      aria-labelledby={`${prefix}-heading`}
      onKeyDown={closeOnEscape(onCancel)}
    >
      <h3 id={`${prefix}-heading`}>Revoke {client.clientName}</h3>
      <p>
        Revocation is irreversible: no new token can be issued, and existing tokens are refused from their
        next request. The integration stops working until it moves to a new client.
      </p>
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${prefix}-confirm`}>Type {client.clientName} to confirm</label>
          <input
            id={`${prefix}-confirm`}
            type="text"
            value={typed}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setTyped(e.target.value)}
          />
        </div>
        {errors !== null && (
          <ErrorAlert error={errors.error} title="The client was not revoked." onRetry={retry} />
        )}
        <div className="button-row">
          <SubmitButton busy={busy} disabled={!matches} className="button-danger">
            Revoke client
          </SubmitButton>
          <button type="button" className="button-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
