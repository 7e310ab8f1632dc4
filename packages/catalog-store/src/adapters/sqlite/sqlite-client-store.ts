import type { DatabaseSync } from 'node:sqlite';
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
import { appendAuditEvent } from './sqlite-audit-log.ts';
import { statement } from './statement-cache.ts';
import { inWriteTransaction } from './transaction.ts';

function channelId(db: DatabaseSync, slug: string | null | undefined): number | null {
  if (slug === null || slug === undefined) return null;
  const row = statement(db, 'SELECT id FROM web_channels WHERE slug = ?').get(slug) as
    | { id: number }
    | undefined;
  if (row === undefined) throw unregisteredChannel('channel');
  return row.id;
}

function epochOrNull(iso: string | null): number | null {
  return iso === null ? null : Date.parse(iso);
}

export class SqliteClientStore implements ClientStore {
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  #row(clientId: string): ClientRow | undefined {
    return statement(this.#db, `${SELECT_CLIENT} WHERE m.client_id = ?`).get(clientId) as
      | ClientRow
      | undefined;
  }

  #existing(clientId: string): ClientRow {
    const row = this.#row(clientId);
    if (row === undefined) throw new NotFoundError('Client', clientId);
    return row;
  }

  async create(input: NewClient, audit?: AuditContext): Promise<StoredClient> {
    return inWriteTransaction(this.#db, () => {
      if (this.#row(input.clientId) !== undefined) throw clientIdTaken();
      statement(
        this.#db,
        `INSERT INTO m2m_clients (client_id, client_name, description, scopes, status, created_at,
           created_by_user_id, created_by_user_name, expires_at, channel_id, secret_hash, token_lifetime_seconds)
         VALUES (?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        input.clientId,
        input.clientName,
        input.description ?? null,
        JSON.stringify(input.scopes),
        input.createdAt === undefined ? Date.now() : Date.parse(input.createdAt),
        input.createdBy.userId,
        input.createdBy.userName,
        epochOrNull(input.expiresAt),
        channelId(this.#db, input.channel),
        input.secretHash,
        input.tokenLifetimeSeconds,
      );
      const created = toClient(this.#existing(input.clientId));
      if (audit !== undefined) appendAuditEvent(this.#db, clientCreatedEvent(audit, created));
      return created;
    });
  }

  async get(clientId: string): Promise<StoredClient | undefined> {
    const row = this.#row(clientId);
    return row === undefined ? undefined : toClient(row);
  }

  async list(filter: { status: ClientStatusFilter }): Promise<StoredClient[]> {
    const rows = statement(
      this.#db,
      `${SELECT_CLIENT} WHERE ? = 'all' OR m.status = ? ORDER BY m.created_at, m.client_id`,
    ).all(filter.status, filter.status) as unknown as ClientRow[];
    return rows.map(toClient);
  }

  async update(clientId: string, patch: ClientPatch, audit?: AuditContext): Promise<StoredClient> {
    return inWriteTransaction(this.#db, () => {
      const current = this.#existing(clientId);
      checkClientChangeable(clientId, current.status);
      const channel =
        patch.channel === undefined
          ? (
              statement(this.#db, 'SELECT channel_id FROM m2m_clients WHERE client_id = ?').get(clientId) as {
                channel_id: number | null;
              }
            ).channel_id
          : channelId(this.#db, patch.channel);
      statement(
        this.#db,
        'UPDATE m2m_clients SET client_name = ?, description = ?, scopes = ?, channel_id = ? WHERE client_id = ?',
      ).run(
        patch.clientName ?? current.client_name,
        patch.description ?? current.description,
        patch.scopes === undefined ? current.scopes : JSON.stringify(patch.scopes),
        channel,
        clientId,
      );
      const updated = toClient(this.#existing(clientId));
      if (audit !== undefined)
        appendAuditEvent(this.#db, clientUpdatedEvent(audit, toClient(current), updated));
      return updated;
    });
  }

  async revoke(clientId: string, by: Actor, audit?: AuditContext): Promise<StoredClient> {
    return inWriteTransaction(this.#db, () => {
      const current = this.#existing(clientId);
      if (current.status === 'revoked') return toClient(current);
      statement(
        this.#db,
        `UPDATE m2m_clients SET status = 'revoked', revoked_at = ?, revoked_by_user_id = ?, revoked_by_user_name = ?
         WHERE client_id = ?`,
      ).run(Date.now(), by.userId, by.userName, clientId);
      const revoked = toClient(this.#existing(clientId));
      if (audit !== undefined) appendAuditEvent(this.#db, clientRevokedEvent(audit, revoked));
      return revoked;
    });
  }

  async recordTokenExchange(clientId: string, at: Date): Promise<void> {
    const result = statement(this.#db, 'UPDATE m2m_clients SET last_used_at = ? WHERE client_id = ?').run(
      at.getTime(),
      clientId,
    );
    if (result.changes === 0) throw new NotFoundError('Client', clientId);
  }

  async recordUsage(clientId: string, calls: number): Promise<void> {
    const result = statement(
      this.#db,
      'UPDATE m2m_clients SET usage_count = usage_count + ? WHERE client_id = ?',
    ).run(calls, clientId);
    if (result.changes === 0) throw new NotFoundError('Client', clientId);
  }
}
