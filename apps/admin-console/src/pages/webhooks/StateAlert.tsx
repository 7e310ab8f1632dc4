import type { WebhookSubscription } from '../../api/webhook-types.ts';
import { DateTime } from '../../components/DateTime.tsx';
import { lastErrorText, stateAdvice, stateReason } from './webhook-rules.ts';

const TITLES = {
  failing: 'This subscription is failing',
  disabled: 'This subscription is disabled',
  'client-inactive': 'This subscription’s client is inactive',
} as const;

/**
 * A subscription that does not deliver as it should says so above everything else: what happened,
 * the last error, and what to do (fix the endpoint, then Enable or redeliver the range it missed).
 */
export function StateAlert({
  subscription,
  onEnable,
  busy,
}: {
  readonly subscription: WebhookSubscription;
  readonly onEnable: () => void;
  readonly busy: boolean;
}) {
  if (subscription.state === 'active') return null;
  const goToRange = () => {
    const from = document.getElementById('redeliver-from');
    from?.scrollIntoView({ block: 'center' });
    from?.focus();
  };
  const severe = subscription.state === 'disabled' || subscription.state === 'failing';
  return (
    <section
      className={`state-alert ${severe ? 'state-alert-error' : 'state-alert-warning'}`}
      aria-labelledby="state-alert-heading"
    >
      <h2 id="state-alert-heading">{TITLES[subscription.state]}</h2>
      <p>{stateReason(subscription)}</p>
      {subscription.failingSince !== null && (
        <p>
          Failing since <DateTime iso={subscription.failingSince} />.
        </p>
      )}
      {subscription.lastError !== null && (
        <p>
          {lastErrorText(subscription)}
          {subscription.lastFailureAt !== null && (
            <>
              {' '}
              (<DateTime iso={subscription.lastFailureAt} />)
            </>
          )}
        </p>
      )}
      <p>
        <strong>What to do:</strong> {stateAdvice(subscription)}
      </p>
      {subscription.state !== 'client-inactive' && (
        <div className="button-row">
          {!subscription.enabled && (
            <button type="button" className="button-primary" onClick={onEnable} disabled={busy}>
              Enable
            </button>
          )}
          <button type="button" className="button-secondary" onClick={goToRange}>
            Redeliver a time range
          </button>
        </div>
      )}
    </section>
  );
}
