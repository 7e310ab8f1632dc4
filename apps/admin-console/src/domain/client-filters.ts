// Which clients the list shows: status, free text, scope, channel and expiry, all of which must match.
import type { GrantableScope, M2MClient } from '../api/types.ts';
import { DAY_MS, type DisplayStatus, displayStatus, EXPIRY_WARNING_DAYS } from './clients.ts';

export type StatusFilter = 'all' | DisplayStatus;
/** `soon`: expiring within 14 days (not yet expired); `never`: no expiry; `past`: expiry passed. */
export type ExpiryFilter = 'any' | 'soon' | 'never' | 'past';
/** '' = any channel; UNBOUND = bound to none. */
export const UNBOUND = '-';

export interface ClientFilter {
  readonly status: StatusFilter;
  readonly text: string;
  readonly scope: GrantableScope | '';
  readonly channel: string;
  readonly expiry: ExpiryFilter;
}

export const NO_FILTER: ClientFilter = { status: 'all', text: '', scope: '', channel: '', expiry: 'any' };

/** Case-insensitive match of every word of `text` against name, description, clientId and channel. */
export function matchesText(client: M2MClient, text: string): boolean {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = [client.clientName, client.description ?? '', client.clientId, client.channel ?? '']
    .join('\n')
    .toLowerCase();
  return words.every((word) => haystack.includes(word));
}

export function matchesExpiry(
  client: Pick<M2MClient, 'expiresAt'>,
  expiry: ExpiryFilter,
  nowMs: number,
): boolean {
  if (expiry === 'any') return true;
  if (client.expiresAt === null) return expiry === 'never';
  const msLeft = Date.parse(client.expiresAt) - nowMs;
  if (expiry === 'past') return msLeft <= 0;
  return expiry === 'soon' && msLeft > 0 && msLeft <= EXPIRY_WARNING_DAYS * DAY_MS;
}

function matchesChannel(client: M2MClient, channel: string): boolean {
  if (channel === '') return true;
  const bound = client.channel ?? null;
  return channel === UNBOUND ? bound === null : bound === channel;
}

export function filterClients(
  clients: readonly M2MClient[],
  filter: ClientFilter,
  nowMs: number,
): M2MClient[] {
  return clients.filter(
    (client) =>
      (filter.status === 'all' || displayStatus(client, nowMs) === filter.status) &&
      (filter.scope === '' || client.scopes.includes(filter.scope)) &&
      matchesChannel(client, filter.channel) &&
      matchesExpiry(client, filter.expiry, nowMs) &&
      matchesText(client, filter.text),
  );
}
