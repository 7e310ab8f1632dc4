import { ClientRevokedError, ValidationError } from '../errors/request-errors.ts';
import { canonicalEmail } from '../model/admin-email.ts';
import { WEB_CHANNEL_SLUG_PATTERN } from '../model/web-channel.ts';

// The rules of the admin-managed records that need no storage to decide. Every engine applies
// them in the write transaction, around its own lookups (does the slug, email or id exist?).

/** A channel named by `field` (a product's webVisibility.<slug>, a client's channel) must exist. */
export const unregisteredChannel = (field: string): ValidationError =>
  new ValidationError(field, 'is not a registered web channel');

export function checkChannelSlug(slug: string): void {
  if (!WEB_CHANNEL_SLUG_PATTERN.test(slug)) throw new ValidationError('slug', 'must be kebab-case');
}

export const channelSlugTaken = (): ValidationError => new ValidationError('slug', 'is already registered');

/** Two channels of one name could not be told apart where a channel is chosen (a client's binding). */
export const channelNameTaken = (): ValidationError =>
  new ValidationError('name', 'is the name of another web channel');

/** The key a channel's name is unique by: the same for names that differ only in letter case. */
export const channelNameKey = (name: string): string => name.toLowerCase();

/** An administrator's email in its canonical form (model/admin-email.ts): one @ between two parts without spaces. */
export function adminEmail(email: string): string {
  const canonical = canonicalEmail(email);
  if (!/^[^\s@]+@[^\s@]+$/.test(canonical)) throw new ValidationError('email', 'must be an email address');
  return canonical;
}

export const adminEmailTaken = (): ValidationError => new ValidationError('email', 'is already registered');

export const clientIdTaken = (): ValidationError => new ValidationError('clientId', 'is already in use');

/** Revocation is final: a revoked client is never rescoped, renamed or rebound. */
export function checkClientChangeable(clientId: string, status: string): void {
  if (status === 'revoked') throw new ClientRevokedError(clientId);
}
