import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useLeaveGuard } from '../../leave-guard.ts';

/**
 * A signing secret shown this once (after a subscription's creation or a rotation): copy it, read how
 * a receiver verifies with it, and press Done, which forgets it. Leaving before that asks first.
 */
export function OneTimeSecretPanel({
  heading,
  secret,
  children,
  onDone,
}: {
  readonly heading: string;
  readonly secret: string;
  /** What the secret belongs to, said above it. */
  readonly children?: ReactNode;
  readonly onDone: () => void;
}) {
  const [copyStatus, setCopyStatus] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  useLeaveGuard('This signing secret is shown only this once and cannot be shown again. Leave without it?');

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopyStatus('Copied');
    } catch {
      setCopyStatus('Copying failed: select the secret and copy it by hand.');
    }
  };

  return (
    <section className="panel panel-created" aria-labelledby="webhook-secret-heading">
      <h2 id="webhook-secret-heading" ref={headingRef} tabIndex={-1}>
        {heading}
      </h2>
      <p className="warning">
        <strong>
          The signing secret is shown once: store it with the receiver now. It cannot be shown again; a lost
          secret is replaced with Rotate secret.
        </strong>
      </p>
      {children}
      <div className="field">
        <label htmlFor="webhook-secret">Signing secret</label>
        <div className="inline-controls">
          <input
            id="webhook-secret"
            className="secret"
            type="text"
            readOnly
            value={secret}
            autoComplete="off"
            spellCheck={false}
            onFocus={(e) => e.target.select()}
          />
          <button type="button" onClick={copy}>
            Copy secret
          </button>
        </div>
        <p className="copy-status" role="status">
          {copyStatus}
        </p>
      </div>
      <h3>How the receiver verifies a delivery</h3>
      <p className="hint">
        Every delivery is signed as Standard Webhooks has it: <code>webhook-signature</code> is an HMAC-SHA256
        of <code>webhook-id.webhook-timestamp.body</code> under this secret. Check it with the SDK’s{' '}
        <code>verifyWebhook</code> (<code>@catalog/sdk</code>) on the raw body, refuse a timestamp more than
        five minutes away, and skip a <code>webhook-id</code> already handled: delivery is at least once.
      </p>
      <button type="button" className="button-primary" onClick={onDone}>
        Done — I have stored the secret
      </button>
    </section>
  );
}
