import { useCallback, useState } from 'react';
import type { ClientRevocation, M2MClient } from '../../api/types.ts';
import { useApp } from '../../app-context.ts';
import { DateTime } from '../../components/DateTime.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { NavLink } from '../../components/NavLink.tsx';
import { useLoad } from '../../hooks.ts';
import { clientRoute } from '../../routing.ts';
import { RevokePanel } from './RevokePanel.tsx';

export interface Replacement {
  readonly old: M2MClient;
  readonly created: Pick<M2MClient, 'clientId' | 'clientName'>;
}

/**
 * After a duplicate is created: the rest of spec 3 rule 3 (a secret is never rotated through the
 * API), step by step, the old client revoked last, from here, once the integration has moved.
 */
export function ReplacementSteps({
  replacement,
  onRevoked,
  onClose,
}: {
  readonly replacement: Replacement;
  readonly onRevoked: (revocation: ClientRevocation) => void;
  readonly onClose: () => void;
}) {
  const { old, created } = replacement;
  const [revoking, setRevoking] = useState(false);
  const [revoked, setRevoked] = useState<ClientRevocation | null>(null);
  return (
    <section className="panel panel-steps" aria-labelledby="replacement-heading">
      <h2 id="replacement-heading">Replace {old.clientName}: the remaining steps</h2>
      <ol className="steps">
        <li>
          In the integration, put the new client ID <code>{created.clientId}</code> and its secret (shown
          above, once) in place of <code>{old.clientId}</code>.
        </li>
        <li>
          Confirm that the integration works with{' '}
          <NavLink to={clientRoute(created.clientId)}>{created.clientName}</NavLink>: once it has obtained a
          token, the new client shows a last token.
          <LastTokenCheck clientId={created.clientId} />
        </li>
        <li>
          Revoke the old client, {old.clientName}: no new token for it, and its tokens are refused from their
          next request.
          {revoked !== null ? (
            <p className="notice">
              {revoked.clientName} was revoked on <DateTime iso={revoked.revokedAt} />.
            </p>
          ) : revoking ? (
            <RevokePanel
              client={old}
              onCancel={() => setRevoking(false)}
              onRevoked={(revocation) => {
                setRevoked(revocation);
                onRevoked(revocation);
              }}
            />
          ) : (
            <div className="button-row">
              <button type="button" className="button-danger-outline" onClick={() => setRevoking(true)}>
                Revoke the old client {old.clientName}…
              </button>
            </div>
          )}
        </li>
      </ol>
      <button type="button" className="button-secondary" onClick={onClose}>
        Close these steps
      </button>
    </section>
  );
}

/** The new client's last token, read again on request: the proof that the integration has moved. */
function LastTokenCheck({ clientId }: { readonly clientId: string }) {
  const { api } = useApp();
  const load = useCallback((signal: AbortSignal) => api.getClient(clientId, signal), [api, clientId]);
  const [current, reload] = useLoad(load);
  return (
    <div className="inline-controls last-token-check">
      <p role="status">
        {current.state === 'loading' && 'Checking…'}
        {current.state === 'ready' && (
          <>
            Last token: <DateTime iso={current.value.value.lastUsedAt} none="none yet" />
          </>
        )}
      </p>
      {current.state === 'error' && <ErrorAlert error={current.error} />}
      <button type="button" className="button-small" onClick={reload}>
        Check again
      </button>
    </div>
  );
}
