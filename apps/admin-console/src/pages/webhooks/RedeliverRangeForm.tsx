import { type FormEvent, useState } from 'react';
import type { WebhookRedelivery } from '../../api/webhook-types.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { describedBy, FieldErrorText } from '../../components/FieldError.tsx';
import { SubmitButton } from '../../components/SubmitButton.tsx';
import { focusAfterRender } from '../../focus-on-navigation.ts';
import { useSubmission } from '../../forms/use-submission.ts';
import { useWebhookApi } from './use-webhook-api.ts';
import { browserTimeZone, localInputToIso } from './webhook-rules.ts';

const needsTime = (label: string) => `${label} needs a date and a time.`;

/**
 * Every delivery whose event occurred in [from, to) queued again, as after an endpoint's outage. The
 * inputs are wall times in the browser's zone (said next to them), sent as ISO instants.
 */
export function RedeliverRangeForm({
  subscriptionId,
  onQueued,
}: {
  readonly subscriptionId: string;
  readonly onQueued: (result: WebhookRedelivery) => void;
}) {
  const api = useWebhookApi();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const { busy, errors, fieldErrors, run, retry } = useSubmission(['from', 'to']);
  // Checked here because only the browser knows them: an input left empty or half filled in has no
  // instant to send, and a range must end after it starts.
  const [local, setLocal] = useState<{ from?: string[]; to?: string[] }>({});
  const fromErrors = local.from ?? fieldErrors.from;
  const toErrors = local.to ?? fieldErrors.to;
  const zone = browserTimeZone();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const range = { from: localInputToIso(from), to: localInputToIso(to) };
    const found: { from?: string[]; to?: string[] } = {};
    if (range.from === null) found.from = [needsTime('From')];
    if (range.to === null) found.to = [needsTime('To')];
    else if (range.from !== null && Date.parse(range.from) >= Date.parse(range.to))
      found.to = ['To must be after From: the range runs from From (included) to To (excluded).'];
    setLocal(found);
    if (range.from === null || range.to === null || found.to !== undefined) {
      const form = event.currentTarget as HTMLFormElement;
      focusAfterRender(() => form.querySelector<HTMLElement>('[aria-invalid="true"]'));
      return;
    }
    // No browser check with the contract's validator: it cannot be compiled for the browser yet (its
    // date-time format needs ajv-formats, which the standalone build does not import).
    const body = { from: range.from, to: range.to };
    return run(async () => onQueued(await api.redeliver(subscriptionId, body)));
  };

  return (
    <section className="inline-panel" aria-labelledby="redeliver-range-heading">
      <h3 id="redeliver-range-heading">Redeliver a time range</h3>
      <p className="hint" id="redeliver-zone-hint">
        Times are in your browser’s time zone, <strong>{zone}</strong>. Every delivery whose event occurred
        from “From” (included) to “To” (excluded) is sent again with its event id unchanged, so a receiver
        that skips ids it already handled ignores what it has.
      </p>
      <form onSubmit={submit} noValidate>
        <div className="filters">
          <div className="field">
            <label htmlFor="redeliver-from">From ({zone})</label>
            <input
              id="redeliver-from"
              type="datetime-local"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              {...describedBy('redeliver-from-error', fromErrors, 'redeliver-zone-hint')}
            />
            <FieldErrorText id="redeliver-from-error" messages={fromErrors} />
          </div>
          <div className="field">
            <label htmlFor="redeliver-to">To ({zone})</label>
            <input
              id="redeliver-to"
              type="datetime-local"
              value={to}
              onChange={(e) => setTo(e.target.value)}
              {...describedBy('redeliver-to-error', toErrors, 'redeliver-zone-hint')}
            />
            <FieldErrorText id="redeliver-to-error" messages={toErrors} />
          </div>
        </div>
        {errors !== null && (
          <ErrorAlert
            error={errors.error}
            title="Nothing was queued again."
            extra={errors.unmatched}
            onRetry={retry}
          />
        )}
        <div className="button-row">
          <SubmitButton busy={busy} className="button-secondary">
            Redeliver range
          </SubmitButton>
        </div>
      </form>
    </section>
  );
}
