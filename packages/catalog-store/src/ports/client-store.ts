import type { AuditContext } from '../model/audit-event.ts';
import type { Actor, ClientPatch, ClientStatusFilter, NewClient, StoredClient } from '../model/m2m-client.ts';
import type { ExpectedVersion } from '../records/expected-version.ts';

export interface ClientStore {
  /** With `audit`, appends 'client.create' in the same transaction (so for every write below). */
  create(input: NewClient, audit?: AuditContext): Promise<StoredClient>;
  get(clientId: string): Promise<StoredClient | undefined>;
  list(filter: { status: ClientStatusFilter }): Promise<StoredClient[]>;
  /**
   * ClientRevokedError on a revoked client; ValidationError for an unregistered channel. With
   * `expected`, a PreconditionFailedError, and nothing written, unless the client is still at that
   * version (so for `revoke`).
   */
  update(
    clientId: string,
    patch: ClientPatch,
    audit?: AuditContext,
    expected?: ExpectedVersion,
  ): Promise<StoredClient>;
  /** Irreversible; revoking again returns the record unchanged and appends no event. */
  revoke(
    clientId: string,
    by: Actor,
    audit?: AuditContext,
    expected?: ExpectedVersion,
  ): Promise<StoredClient>;
  /** Sets lastUsedAt: the time of the last token exchange. */
  recordTokenExchange(clientId: string, at: Date): Promise<void>;
  /** Adds API calls to usageCount. */
  recordUsage(clientId: string, calls: number): Promise<void>;
}
