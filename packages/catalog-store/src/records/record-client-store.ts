import type { AuditContext } from '../model/audit-event.ts';
import type { Actor, ClientPatch, ClientStatusFilter, NewClient, StoredClient } from '../model/m2m-client.ts';
import type { ClientStore } from '../ports/client-store.ts';
import {
  clientRow,
  createClient,
  revokeClient,
  updateClient,
  updateClientBookkeeping,
} from './client-records.ts';
import { type ClientRow, SELECT_CLIENT, toClient } from './client-row.ts';
import type { ExpectedVersion } from './expected-version.ts';
import type { RecordEngine } from './record-engine.ts';
import { rows } from './record-work.ts';

/** The machine-to-machine clients on either record engine. */
export class RecordClientStore implements ClientStore {
  readonly #engine: RecordEngine;

  constructor(engine: RecordEngine) {
    this.#engine = engine;
  }

  create(input: NewClient, audit?: AuditContext): Promise<StoredClient> {
    return this.#engine.write(() => createClient(input, audit));
  }

  async get(clientId: string): Promise<StoredClient | undefined> {
    const found = await this.#engine.direct(() => clientRow(clientId));
    return found === undefined ? undefined : toClient(found);
  }

  async list(filter: { status: ClientStatusFilter }): Promise<StoredClient[]> {
    const { byteOrder } = this.#engine.dialect;
    const found = await this.#engine.direct(() =>
      rows<ClientRow>(
        `${SELECT_CLIENT} WHERE ? = 'all' OR m.status = ? ORDER BY m.created_at, m.client_id${byteOrder}`,
        filter.status,
        filter.status,
      ),
    );
    return found.map(toClient);
  }

  update(
    clientId: string,
    patch: ClientPatch,
    audit?: AuditContext,
    expected?: ExpectedVersion,
  ): Promise<StoredClient> {
    return this.#engine.write(() => updateClient(clientId, patch, audit, expected));
  }

  revoke(
    clientId: string,
    by: Actor,
    audit?: AuditContext,
    expected?: ExpectedVersion,
  ): Promise<StoredClient> {
    return this.#engine.write(() => revokeClient(clientId, by, audit, expected));
  }

  // The two below are bookkeeping of every token exchange and API call, not writes of the client:
  // one statement each, outside any write transaction, so that they never queue behind catalogue
  // writes (and PostgreSQL's change-feed trigger ignores their columns).

  recordTokenExchange(clientId: string, at: Date): Promise<void> {
    return this.#engine.direct(() =>
      updateClientBookkeeping(
        clientId,
        'UPDATE m2m_clients SET last_used_at = ? WHERE client_id = ?',
        at.getTime(),
      ),
    );
  }

  recordUsage(clientId: string, calls: number): Promise<void> {
    return this.#engine.direct(() =>
      updateClientBookkeeping(
        clientId,
        'UPDATE m2m_clients SET usage_count = usage_count + ? WHERE client_id = ?',
        calls,
      ),
    );
  }
}
