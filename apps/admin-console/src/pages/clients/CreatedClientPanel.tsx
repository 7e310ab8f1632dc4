import { useEffect, useRef, useState } from 'react';
import { useApp } from '../../app-context.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { curlTokenCommand, SECRET_VARIABLE, sdkSnippet } from '../../domain/snippets.ts';
import { useLeaveGuard } from '../../leave-guard.ts';
import type { CreatedResult } from './CreateClientForm.tsx';

/** Shown once after creation: the secret, how to use it, and a button that forgets it. */
export function CreatedClientPanel({
  result,
  onDone,
}: {
  readonly result: CreatedResult;
  readonly onDone: () => void;
}) {
  const { config } = useApp();
  const { created, bindingFailure } = result;
  const [copyStatus, setCopyStatus] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  useLeaveGuard(
    `The secret of ${created.clientName} is shown only this once and cannot be shown again. Leave without it?`,
  );

  const copySecret = async () => {
    try {
      await navigator.clipboard.writeText(created.clientSecret);
      setCopyStatus('Copied');
    } catch {
      setCopyStatus('Copying failed: select the secret and copy it by hand.');
    }
  };

  return (
    <section className="panel panel-created" aria-labelledby="created-heading">
      <h2 id="created-heading" ref={heading} tabIndex={-1}>
        Client created — copy the secret now
      </h2>
      <p className="warning">
        <strong>{created.warning}</strong>
      </p>
      {bindingFailure !== null && (
        <ErrorAlert
          error={bindingFailure.error}
          title={`The client was created but not bound to the channel ${bindingFailure.channel}. Bind it with Edit.`}
        />
      )}
      <dl className="details-list">
        <dt>Client name</dt>
        <dd>{created.clientName}</dd>
        <dt>Client ID</dt>
        <dd>
          <code data-testid="client-id">{created.clientId}</code>
        </dd>
        <dt>Scopes</dt>
        <dd>{created.scopes.join(', ')}</dd>
        <dt>Channel</dt>
        <dd>{created.channel ?? 'Unbound'}</dd>
        <dt>Token endpoint</dt>
        <dd>
          <code>{created.tokenEndpoint}</code>
        </dd>
      </dl>
      <div className="field">
        <label htmlFor="created-secret">Client secret</label>
        <div className="inline-controls">
          <input
            id="created-secret"
            className="secret"
            type="text"
            readOnly
            value={created.clientSecret}
            autoComplete="off"
            spellCheck={false}
            onFocus={(e) => e.target.select()}
          />
          <button type="button" onClick={copySecret}>
            Copy secret
          </button>
        </div>
        <p className="copy-status" role="status">
          {copyStatus}
        </p>
      </div>
      <h3>Get a token with curl</h3>
      <p className="hint">
        Both snippets read the secret from the environment variable <code>{SECRET_VARIABLE}</code>: set it
        first without it landing in your shell history, for example{' '}
        <code>
          read -rs {SECRET_VARIABLE} &amp;&amp; export {SECRET_VARIABLE}
        </code>{' '}
        and paste the secret.
      </p>
      <pre className="snippet">
        <code data-testid="curl-snippet">
          {curlTokenCommand({
            tokenEndpoint: created.tokenEndpoint,
            clientId: created.clientId,
            scopes: created.scopes,
            caFile: config.localCaFile,
          })}
        </code>
      </pre>
      <h3>Use the SDK (@catalog/sdk)</h3>
      <pre className="snippet">
        <code>
          {sdkSnippet({
            apiBaseUrl: config.apiBaseUrl,
            tokenEndpoint: created.tokenEndpoint,
            clientId: created.clientId,
            caFile: config.localCaFile,
          })}
        </code>
      </pre>
      <button type="button" className="button-primary" onClick={onDone}>
        Done — I have stored the secret
      </button>
    </section>
  );
}
