import { type FormEvent, useEffect, useRef } from 'react';
import { ApiError } from '../../api/client.ts';
import { closeOnEscape } from '../../components/close-on-escape.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { SubmitButton } from '../../components/SubmitButton.tsx';
import { useSubmission } from '../../forms/use-submission.ts';
import { useWebhookApi } from './use-webhook-api.ts';

/** Deleting drops the subscription, its waiting deliveries and its log: asked once more first. */
export function DeletePanel({
  subscriptionId,
  url,
  onDeleted,
  onCancel,
}: {
  readonly subscriptionId: string;
  readonly url: string;
  readonly onDeleted: () => void;
  readonly onCancel: () => void;
}) {
  const api = useWebhookApi();
  const { busy, errors, run, retry } = useSubmission([]);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      try {
        await api.deleteSubscription(subscriptionId);
      } catch (error) {
        // A retry after an answer that never came finds it gone: the first attempt deleted it.
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      }
      onDeleted();
    });
  };

  return (
    <section
      className="inline-panel inline-panel-danger"
      aria-labelledby="delete-subscription-heading"
      onKeyDown={closeOnEscape(onCancel)}
    >
      <h3 id="delete-subscription-heading" ref={heading} tabIndex={-1}>
        Delete this subscription?
      </h3>
      <p>
        Nothing more is sent to <code className="url-text">{url}</code>; deliveries not yet sent are dropped,
        and the delivery log goes with it. The audit trail keeps the record. To pause deliveries instead,
        Disable it.
      </p>
      <form onSubmit={submit}>
        {errors !== null && (
          <ErrorAlert error={errors.error} title="The subscription was not deleted." onRetry={retry} />
        )}
        <div className="button-row">
          <SubmitButton busy={busy} className="button-danger">
            Delete subscription
          </SubmitButton>
          <button type="button" className="button-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
