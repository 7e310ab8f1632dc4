import { useCallback } from 'react';
import type { M2MClient } from '../../api/types.ts';
import { useApp } from '../../app-context.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Loading } from '../../components/Loading.tsx';
import { useLoad } from '../../hooks.ts';

/** Secrets are not rotated by the API: it answers with the manual procedure, shown here. */
export function RotatePanel({
  client,
  onClose,
}: {
  readonly client: M2MClient;
  readonly onClose: () => void;
}) {
  const { api } = useApp();
  const prefix = `rotate-${client.clientId}`;
  const load = useCallback(() => api.rotationInstructions(client.clientId), [api, client.clientId]);
  const [result] = useLoad(load);
  return (
    <section className="inline-panel" aria-labelledby={`${prefix}-heading`}>
      <h3 id={`${prefix}-heading`}>Rotate the secret of {client.clientName}</h3>
      {result.state === 'loading' && <Loading label="Loading the rotation instructions…" />}
      {result.state === 'error' && <ErrorAlert error={result.error} />}
      {result.state === 'ready' && (
        <>
          <p>{result.value.message}</p>
          <ol>
            {result.value.instructions.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          <p>
            Console: <a href={result.value.consoleUrl}>{result.value.consoleUrl}</a>
          </p>
        </>
      )}
      <button type="button" className="button-secondary" onClick={onClose}>
        Close
      </button>
    </section>
  );
}
