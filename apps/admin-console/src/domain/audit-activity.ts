// A client's audit events in words for its detail page: who did what. Values are shown as the
// trail holds them (a scope list, a slug, null for none), so the page never claims more than it knows.
import type { AuditEvent } from '../api/types.ts';

const ACTIONS: Readonly<Partial<Record<AuditEvent['action'], string>>> = {
  'client.create': 'Created',
  'client.update': 'Changed',
  'client.revoke': 'Revoked',
  'client.rotate-secret': 'Asked for the secret rotation instructions',
};

const FIELDS: Readonly<Record<string, string>> = {
  clientName: 'name',
  description: 'description',
  scopes: 'scopes',
  channel: 'channel',
  expiresAt: 'expiry',
};

export function actorName(actor: AuditEvent['actor']): string {
  if (actor.kind === 'admin') return actor.email;
  if (actor.kind === 'operator') return 'the operator CLI';
  if (actor.kind === 'service') return 'the webhook delivery worker';
  return 'an unknown account';
}

function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return 'none';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(', ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** "Changed scopes from products.read to products.read, brands.read; channel from none to eu-shop". */
export function activityText(event: Pick<AuditEvent, 'action' | 'changes'>): string {
  const verb = ACTIONS[event.action] ?? event.action;
  const changes = Object.entries(event.changes ?? {}).map(
    ([field, change]) =>
      `${FIELDS[field] ?? field} from ${valueText(change.from)} to ${valueText(change.to)}`,
  );
  return changes.length === 0 ? verb : `${verb} ${changes.join('; ')}`;
}
