import type { Actor, ClientPatch, ClientStatusFilter, NewClient, StoredClient } from '../model/m2m-client.ts';

export interface ClientStore {
  create(input: NewClient): Promise<StoredClient>;
  get(clientId: string): Promise<StoredClient | undefined>;
  list(filter: { status: ClientStatusFilter }): Promise<StoredClient[]>;
  /** ClientRevokedError on a revoked client; ValidationError for an unregistered channel. */
  update(clientId: string, patch: ClientPatch): Promise<StoredClient>;
  /** Irreversible; revoking again returns the record unchanged. */
  revoke(clientId: string, by: Actor): Promise<StoredClient>;
  /** Sets lastUsedAt: the time of the last token exchange. */
  recordTokenExchange(clientId: string, at: Date): Promise<void>;
  /** Adds API calls to usageCount. */
  recordUsage(clientId: string, calls: number): Promise<void>;
}
