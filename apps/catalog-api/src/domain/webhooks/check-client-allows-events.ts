import { ServiceError } from '@catalog/contracts';
import {
  type CatalogStore,
  EVENT_TYPE_SCOPE,
  isClientUsable,
  type StoredClient,
  type WebhookEventType,
} from '@catalog/store';
import { webhookInputError } from './webhook-input-error.ts';

/**
 * The client a subscription belongs to: it must exist (404) and, unless `mayBeInactive`, be active
 * and unexpired (400); its scopes must allow every event type, since the receiver reads the record
 * through that client next (400 naming the type and the scope it needs).
 */
export async function checkClientAllowsEvents(input: {
  readonly store: CatalogStore;
  readonly clientId: string;
  readonly eventTypes: readonly WebhookEventType[];
  readonly now: Date;
  readonly mayBeInactive?: boolean;
}): Promise<StoredClient> {
  const client = await input.store.clients.get(input.clientId);
  if (client === undefined) throw new ServiceError(404, 'NOT_FOUND', 'Client not found');
  if (input.mayBeInactive !== true && !isClientUsable(client, input.now)) {
    throw webhookInputError(
      'clientId',
      client.status === 'active' ? 'names an expired client' : 'names a revoked client',
    );
  }
  for (const eventType of input.eventTypes) {
    const scope = EVENT_TYPE_SCOPE[eventType];
    if (!client.scopes.includes(scope)) {
      throw webhookInputError(
        'eventTypes',
        `includes ${eventType}, which needs the scope ${scope} that the client does not have`,
      );
    }
  }
  return client;
}
