import type { WebhookSubscriptionState } from '../../api/webhook-types.ts';
import { STATE_LABEL } from './webhook-rules.ts';

export function StateBadge({ state }: { readonly state: WebhookSubscriptionState }) {
  return <span className={`state state-${state}`}>{STATE_LABEL[state]}</span>;
}
