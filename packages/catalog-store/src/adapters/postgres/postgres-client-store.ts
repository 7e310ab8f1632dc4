import type pg from 'pg';
import { clientCreatedEvent, clientRevokedEvent, clientUpdatedEvent } from '../../audit/client-events.ts';
import { NotFoundError } from '../../errors/request-errors.ts';
import type { AuditContext } from '../../model/audit-event.ts';
import type {
  Actor,
  ClientPatch,
  ClientStatusFilter,
  NewClient,
  StoredClient,
} from '../../model/m2m-client.ts';
import type { ClientStore } from '../../ports/client-store.ts';
import { checkClientChangeable, clientIdTaken, unregisteredChannel } from '../../write-rules/record-rules.ts';
import { type ClientRow, SELECT_CLIENT, toClient } from '../client-row.ts';
import { appendAuditEvent } from './postgres-audit-log.ts';
import { inWriteTransaction } from './transaction.ts';

async function clientRow(db: pg.Pool | pg.PoolClient, clientId: string): Promise<ClientRow | undefined> {
  const result = await db.query<ClientRow>(`${SELECT_CLIENT} WHERE m.client_id = $1`, [clientId]);
  return result.rows[0];
}

async function existingClient(client: pg.PoolClient, clientId: string): Promise<ClientRow> {
  const row = await clientRow(client, clientId);
  if (row === undefined) throw new NotFoundError('Client', clientId);
  return row;
}

async function channelId(client: pg.PoolClient, slug: string | null | undefined): Promise<number | null> {
  if (slug === null || slug === undefined) return null;
  const result = await client.query<{ id: number }>('SELECT id FROM web_channels WHERE slug = $1', [slug]);
  const row = result.rows[0];
  if (row === undefined) throw unregisteredChannel('channel');
  return row.id;
}

function epochOrNull(iso: string | null): number | null {
  return iso === null ? null : Date.parse(iso);
}

export class PostgresClientStore implements ClientStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async create(input: NewClient, audit?: AuditContext): Promise<StoredClient> {
    return inWriteTransaction(this.#pool, async (client, ts) => {
      if ((await clientRow(client, input.clientId)) !== undefined) {
        throw clientIdTaken();
      }
      await client.query(
        `INSERT INTO m2m_clients (client_id, client_name, description, scopes, status, created_at,
           created_by_user_id, created_by_user_name, expires_at, channel_id, secret_hash, token_lifetime_seconds)
         VALUES ($1, $2, $3, $4, 'active', $5, $6, $7, $8, $9, $10, $11)`,
        [
          input.clientId,
          input.clientName,
          input.description ?? null,
          JSON.stringify(input.scopes),
          input.createdAt === undefined ? ts : Date.parse(input.createdAt),
          input.createdBy.userId,
          input.createdBy.userName,
          epochOrNull(input.expiresAt),
          await channelId(client, input.channel),
          input.secretHash,
          input.tokenLifetimeSeconds,
        ],
      );
      const created = toClient(await existingClient(client, input.clientId));
      if (audit !== undefined) await appendAuditEvent(client, clientCreatedEvent(audit, created), ts);
      return created;
    });
  }

  async get(clientId: string): Promise<StoredClient | undefined> {
    const row = await clientRow(this.#pool, clientId);
    return row === undefined ? undefined : toClient(row);
  }

  async list(filter: { status: ClientStatusFilter }): Promise<StoredClient[]> {
    // Ties in creation time broken in byte order, as the embedded engine does.
    const result = await this.#pool.query<ClientRow>(
      `${SELECT_CLIENT} WHERE $1 = 'all' OR m.status = $1 ORDER BY m.created_at, m.client_id COLLATE "C"`,
      [filter.status],
    );
    return result.rows.map(toClient);
  }

  async update(clientId: string, patch: ClientPatch, audit?: AuditContext): Promise<StoredClient> {
    return inWriteTransaction(this.#pool, async (client, ts) => {
      const current = await existingClient(client, clientId);
      checkClientChangeable(clientId, current.status);
      await client.query(
        'UPDATE m2m_clients SET client_name = $1, description = $2, scopes = $3, channel_id = $4 WHERE client_id = $5',
        [
          patch.clientName ?? current.client_name,
          patch.description ?? current.description,
          patch.scopes === undefined ? current.scopes : JSON.stringify(patch.scopes),
          patch.channel === undefined ? current.channel_id : await channelId(client, patch.channel),
          clientId,
        ],
      );
      const updated = toClient(await existingClient(client, clientId));
      if (audit !== undefined) {
        await appendAuditEvent(client, clientUpdatedEvent(audit, toClient(current), updated), ts);
      }
      return updated;
    });
  }

  async revoke(clientId: string, by: Actor, audit?: AuditContext): Promise<StoredClient> {
    return inWriteTransaction(this.#pool, async (client, ts) => {
      const current = await existingClient(client, clientId);
      if (current.status === 'revoked') return toClient(current);
      await client.query(
        `UPDATE m2m_clients SET status = 'revoked', revoked_at = $1, revoked_by_user_id = $2, revoked_by_user_name = $3
         WHERE client_id = $4`,
        [ts, by.userId, by.userName, clientId],
      );
      const revoked = toClient(await existingClient(client, clientId));
      if (audit !== undefined) await appendAuditEvent(client, clientRevokedEvent(audit, revoked), ts);
      return revoked;
    });
  }

  // The two below are bookkeeping of every token exchange and API call, not writes of the client:
  // one statement each, outside the write clock, so that they never queue behind catalogue writes
  // (and the change feed's trigger ignores their columns).

  async recordTokenExchange(clientId: string, at: Date): Promise<void> {
    const result = await this.#pool.query('UPDATE m2m_clients SET last_used_at = $1 WHERE client_id = $2', [
      at.getTime(),
      clientId,
    ]);
    if (result.rowCount === 0) throw new NotFoundError('Client', clientId);
  }

  async recordUsage(clientId: string, calls: number): Promise<void> {
    const result = await this.#pool.query(
      'UPDATE m2m_clients SET usage_count = usage_count + $1 WHERE client_id = $2',
      [calls, clientId],
    );
    if (result.rowCount === 0) throw new NotFoundError('Client', clientId);
  }
}
