// Every field of spec 2.4 that is stored, plus what only the servers see (secret hash, token
// lifetime). Create-response-only fields (clientSecret, tokenEndpoint, warning) are never stored.

import { GRANTABLE_SCOPES, type GrantableScope } from '@catalog/contracts';

export const CLIENT_SCOPES: readonly GrantableScope[] = GRANTABLE_SCOPES;
export type ClientScope = GrantableScope;
export type ClientStatus = 'active' | 'revoked';

export interface Actor {
  userId: string;
  userName: string;
}

export interface StoredClient {
  clientId: string;
  clientName: string;
  description?: string;
  scopes: ClientScope[];
  status: ClientStatus;
  createdAt: string;
  createdBy: Actor;
  expiresAt: string | null;
  lastUsedAt: string | null;
  usageCount: number;
  revokedAt: string | null;
  revokedBy: Actor | null;
  channel: string | null;
  /** HMAC-SHA-256 of the secret with the server's pepper. */
  secretHash: string;
  tokenLifetimeSeconds: number;
  /** 1 when created, one more with every administrative write (the ETag's source); use is not a write. */
  version: number;
}

export interface NewClient {
  clientId: string;
  clientName: string;
  description?: string;
  scopes: ClientScope[];
  createdBy: Actor;
  expiresAt: string | null;
  channel?: string | null;
  secretHash: string;
  tokenLifetimeSeconds: number;
  /** Set by imports of legacy clients; defaults to now. */
  createdAt?: string;
}

export interface ClientPatch {
  clientName?: string;
  description?: string;
  scopes?: ClientScope[];
  channel?: string | null;
}

export type ClientStatusFilter = ClientStatus | 'all';

/**
 * Whether a client may obtain tokens and use them (spec 3): active and not past `expiresAt`.
 * A client past its expiry is effectively revoked whatever its stored status (rule 2).
 */
export function isClientUsable(client: Pick<StoredClient, 'status' | 'expiresAt'>, now: Date): boolean {
  if (client.status !== 'active') return false;
  return client.expiresAt === null || Date.parse(client.expiresAt) > now.getTime();
}
