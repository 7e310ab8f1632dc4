import type { AuditContext, CatalogStore, RedeliverySelection } from '@catalog/store';
import { webhookInputError } from './webhook-input-error.ts';

/**
 * POST /admin/webhook-subscriptions/{id}/redeliver: one delivery, or those whose event occurred in
 * [from, to), queued again; a range that is empty or backwards is a mistake, refused (400).
 */
export async function redeliverWebhookEvents(input: {
  readonly store: CatalogStore;
  readonly subscriptionId: string;
  readonly selection: RedeliverySelection;
  readonly audit: AuditContext;
}): Promise<number> {
  const { selection } = input;
  if ('from' in selection && !(Date.parse(selection.from) < Date.parse(selection.to))) {
    throw webhookInputError('to', 'must be later than from');
  }
  return input.store.webhooks.redeliver(input.subscriptionId, selection, input.audit);
}
