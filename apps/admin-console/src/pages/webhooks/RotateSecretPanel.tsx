import { rotateWebhookSecret } from 'virtual:request-validators';
import { type FormEvent, useState } from 'react';
import type { WebhookSecretRotation, WebhookSecretRotationRequest } from '../../api/webhook-types.ts';
import { closeOnEscape } from '../../components/close-on-escape.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { describedBy, FieldErrorText } from '../../components/FieldError.tsx';
import { SubmitButton } from '../../components/SubmitButton.tsx';
import { useSubmission } from '../../forms/use-submission.ts';
import { useWebhookApi } from './use-webhook-api.ts';
import { WEBHOOK_FIELD_LABELS } from './webhook-rules.ts';

export const DEFAULT_OVERLAP_HOURS = '24';

/** A new signing secret; the old one goes on signing for the overlap, so the receiver can switch. */
export function RotateSecretPanel({
  subscriptionId,
  onRotated,
  onCancel,
}: {
  readonly subscriptionId: string;
  readonly onRotated: (rotation: WebhookSecretRotation) => void;
  readonly onCancel: () => void;
}) {
  const api = useWebhookApi();
  const [overlapHours, setOverlapHours] = useState(DEFAULT_OVERLAP_HOURS);
  const { busy, errors, fieldErrors, run, retry, accepts } = useSubmission(['overlapHours']);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Empty means the default; anything else is sent as typed and checked as the API checks it.
    const typed = overlapHours.trim();
    const body: WebhookSecretRotationRequest = {
      overlapHours: typed === '' ? Number(DEFAULT_OVERLAP_HOURS) : Number(typed),
    };
    if (!accepts(rotateWebhookSecret, body, WEBHOOK_FIELD_LABELS)) return;
    return run(async () => onRotated(await api.rotateSecret(subscriptionId, body)));
  };

  return (
    <section
      className="inline-panel"
      aria-labelledby="rotate-secret-heading"
      onKeyDown={closeOnEscape(onCancel)}
    >
      <h3 id="rotate-secret-heading">Rotate the signing secret</h3>
      <p>
        A new secret is made and shown once. During the overlap every delivery carries two signatures, one per
        secret: install the new secret at the receiver, then let the old one lapse.
      </p>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="rotate-overlap">Old secret still signs for (hours)</label>
          <input
            id="rotate-overlap"
            // biome-ignore lint/a11y/noAutofocus: opened by a click on Rotate secret, not on page load.
            autoFocus
            type="number"
            inputMode="numeric"
            min={0}
            max={168}
            value={overlapHours}
            onChange={(e) => setOverlapHours(e.target.value)}
            {...describedBy('rotate-overlap-error', fieldErrors.overlapHours, 'rotate-overlap-hint')}
          />
          <p className="hint" id="rotate-overlap-hint">
            0 to 168; 24 by default. 0 drops the old secret at once (for a leaked secret).
          </p>
          <FieldErrorText id="rotate-overlap-error" messages={fieldErrors.overlapHours} />
        </div>
        {errors !== null && (
          <ErrorAlert
            error={errors.error}
            title="The secret was not rotated."
            extra={errors.unmatched}
            onRetry={retry}
            retryNote="If no answer came, the secret may have been rotated all the same: rotating again makes another new secret; the one you never saw lapses with the overlap."
          />
        )}
        <div className="button-row">
          <SubmitButton busy={busy}>Rotate secret</SubmitButton>
          <button type="button" className="button-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
