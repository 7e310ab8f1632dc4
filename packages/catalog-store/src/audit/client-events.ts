import type { AuditContext, NewAuditEvent } from '../model/audit-event.ts';
import type { StoredClient } from '../model/m2m-client.ts';
import { changedFields, contextOf } from './audit-fields.ts';

/** The only client fields an event may name: never the secret hash. */
type ClientFacts = Pick<
  StoredClient,
  'clientId' | 'clientName' | 'description' | 'scopes' | 'channel' | 'expiresAt'
>;

const UPDATABLE_FIELDS = ['clientName', 'description', 'scopes', 'channel', 'expiresAt'] as const;

export function clientCreatedEvent(context: AuditContext, client: ClientFacts): NewAuditEvent {
  return {
    ...contextOf(context),
    action: 'client.create',
    target: { type: 'client', id: client.clientId },
    details: {
      clientName: client.clientName,
      // Space-separated, as OAuth writes a scope list.
      scopes: client.scopes.join(' '),
      channel: client.channel,
      expiresAt: client.expiresAt,
    },
  };
}

/** Old → new of every field the update changed (none when it changed nothing). */
export function clientUpdatedEvent(
  context: AuditContext,
  before: ClientFacts,
  after: ClientFacts,
): NewAuditEvent {
  return {
    ...contextOf(context),
    action: 'client.update',
    target: { type: 'client', id: after.clientId },
    changes: changedFields(before, after, UPDATABLE_FIELDS, true),
  };
}

export function clientRevokedEvent(
  context: AuditContext,
  client: Pick<StoredClient, 'clientId'>,
): NewAuditEvent {
  return { ...contextOf(context), action: 'client.revoke', target: { type: 'client', id: client.clientId } };
}
