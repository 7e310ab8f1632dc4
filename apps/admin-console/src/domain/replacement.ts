// Secrets are never rotated through the API (spec 3, rule 3): a client is replaced instead, by a new
// client with the old one's fields, and the old one is revoked once the integration has moved.
import type { GrantableScope, M2MClient } from '../api/types.ts';
import { DAY_MS } from './clients.ts';

/** What the create form starts from. Strings as the form's fields hold them ('' = empty). */
export interface ClientDraft {
  readonly clientName: string;
  readonly description: string;
  readonly scopes: readonly GrantableScope[];
  readonly expiresInDays: string;
  readonly channel: string;
}

export const EMPTY_DRAFT: ClientDraft = {
  clientName: '',
  description: '',
  scopes: ['products.read'],
  expiresInDays: '',
  channel: '',
};

const NAME_MAX = 100;
const SUFFIX = ' replacement';
const EXPIRY_MAX_DAYS = 365;

/**
 * The old client's fields for its replacement. The name says what it is (names allow no brackets);
 * the expiry is a fresh one of the old client's lifetime, counted from the replacement's creation,
 * which is also how an expiry is "extended": it cannot be changed after creation.
 */
export function replacementDraft(client: M2MClient): ClientDraft {
  return {
    clientName: `${client.clientName.slice(0, NAME_MAX - SUFFIX.length)}${SUFFIX}`,
    description: client.description ?? '',
    scopes: client.scopes,
    expiresInDays: lifetimeDays(client),
    channel: client.channel ?? '',
  };
}

/** The client's lifetime in whole days (1–365) as it was created, or '' when it never expires. */
export function lifetimeDays(client: Pick<M2MClient, 'createdAt' | 'expiresAt'>): string {
  if (client.expiresAt === null) return '';
  const days = Math.round((Date.parse(client.expiresAt) - Date.parse(client.createdAt)) / DAY_MS);
  return String(Math.min(Math.max(days, 1), EXPIRY_MAX_DAYS));
}
