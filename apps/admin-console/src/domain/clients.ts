// Rules of a client as the console shows it: its status, what makes it stand out, how it is named.
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

/** How a client is named wherever one is chosen: same-named clients told apart by their id. */
export function clientChoiceLabel(client: M2MClient, nowMs: number): string {
  return `${client.clientName} (${displayStatus(client, nowMs)}) · ${client.clientId}`;
}

/** A client's fields as the forms label them, to lead the messages of the browser's own check. */
export const CLIENT_FIELD_LABELS: Readonly<Record<string, string>> = {
  clientName: 'Client name',
  description: 'Description',
  scopes: 'Scopes',
  expiresInDays: 'Expires in (days)',
  channel: 'Channel',
};
