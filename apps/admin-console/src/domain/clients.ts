// Rules of the clients table: which clients stand out, filtering and sorting.
import type { M2MClient } from '../api/types.ts';

export const DAY_MS = 86_400_000;
export const EXPIRY_WARNING_DAYS = 14;
export const UNUSED_DAYS = 30;

export type ClientBadge =
  | { readonly kind: 'expiring'; readonly text: string; readonly days: number }
  | { readonly kind: 'unused'; readonly text: string };

/** Whole days until expiry, rounded up; null when the client never expires. */
export function daysUntilExpiry(client: Pick<M2MClient, 'expiresAt'>, nowMs: number): number | null {
  if (client.expiresAt === null) return null;
  return Math.ceil((Date.parse(client.expiresAt) - nowMs) / DAY_MS);
}

/** Not used for 30 days: last used more than 30 days ago, or never used and created more than 30 days ago. */
export function isUnused(client: Pick<M2MClient, 'lastUsedAt' | 'createdAt'>, nowMs: number): boolean {
  const reference = client.lastUsedAt ?? client.createdAt;
  return nowMs - Date.parse(reference) > UNUSED_DAYS * DAY_MS;
}

/**
 * What a client is to the people who use it: an active client past its expiry obtains no token any
 * more (the token server refuses it), so it is shown, filtered and chosen as expired, not active.
 */
export type DisplayStatus = 'active' | 'expired' | 'revoked';

export function displayStatus(client: Pick<M2MClient, 'status' | 'expiresAt'>, nowMs: number): DisplayStatus {
  if (client.status === 'revoked') return 'revoked';
  return client.expiresAt !== null && Date.parse(client.expiresAt) <= nowMs ? 'expired' : 'active';
}

/** What makes an active client stand out: expiring within 14 days, unused for 30 days. */
export function clientBadges(client: M2MClient, nowMs: number): ClientBadge[] {
  if (displayStatus(client, nowMs) !== 'active') return [];
  const badges: ClientBadge[] = [];
  if (client.expiresAt !== null) {
    const msLeft = Date.parse(client.expiresAt) - nowMs;
    if (msLeft <= EXPIRY_WARNING_DAYS * DAY_MS) {
      const days = Math.ceil(msLeft / DAY_MS);
      badges.push({ kind: 'expiring', days, text: `Expires in ${days} ${days === 1 ? 'day' : 'days'}` });
    }
  }
  if (isUnused(client, nowMs)) badges.push({ kind: 'unused', text: `Unused for ${UNUSED_DAYS}+ days` });
  return badges;
}

export type StatusFilter = 'all' | DisplayStatus;
export type ClientSort = 'created-desc' | 'last-used-desc' | 'last-used-asc';

export interface ClientFilter {
  readonly status: StatusFilter;
  readonly text: string;
}

/** Case-insensitive match of every word of `text` against name, description, clientId and channel. */
export function matchesText(client: M2MClient, text: string): boolean {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = [client.clientName, client.description ?? '', client.clientId, client.channel ?? '']
    .join('\n')
    .toLowerCase();
  return words.every((word) => haystack.includes(word));
}

export function filterClients(
  clients: readonly M2MClient[],
  filter: ClientFilter,
  nowMs: number,
): M2MClient[] {
  return clients.filter(
    (client) =>
      (filter.status === 'all' || displayStatus(client, nowMs) === filter.status) &&
      matchesText(client, filter.text),
  );
}

/** How a client is named wherever one is chosen: same-named clients told apart by their id. */
export function clientChoiceLabel(client: M2MClient, nowMs: number): string {
  return `${client.clientName} (${displayStatus(client, nowMs)}) · ${client.clientId}`;
}

function lastUsedMs(client: M2MClient): number | null {
  return client.lastUsedAt === null ? null : Date.parse(client.lastUsedAt);
}

/**
 * `last-used-desc`: most recently used first, never-used last. `last-used-asc`: never-used first (the least
 * recent of all), then the oldest use first. `created-desc`: newest client first. Ties by name.
 */
export function sortClients(clients: readonly M2MClient[], sort: ClientSort): M2MClient[] {
  const byName = (a: M2MClient, b: M2MClient) => a.clientName.localeCompare(b.clientName);
  return [...clients].sort((a, b) => {
    if (sort === 'created-desc') return Date.parse(b.createdAt) - Date.parse(a.createdAt) || byName(a, b);
    const ua = lastUsedMs(a);
    const ub = lastUsedMs(b);
    if (ua === null && ub === null) return byName(a, b);
    if (ua === null) return sort === 'last-used-desc' ? 1 : -1;
    if (ub === null) return sort === 'last-used-desc' ? -1 : 1;
    return (sort === 'last-used-desc' ? ub - ua : ua - ub) || byName(a, b);
  });
}

/** `2025-11-25` style date for the table (UTC, so every administrator sees the same day). */
export function formatDate(iso: string | null): string {
  if (iso === null) return 'never';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().slice(0, 10);
}

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A client's fields as the forms label them, to lead the messages of the browser's own check. */
export const CLIENT_FIELD_LABELS: Readonly<Record<string, string>> = {
  clientName: 'Client name',
  description: 'Description',
  scopes: 'Scopes',
  expiresInDays: 'Expires in (days)',
  channel: 'Channel',
};
