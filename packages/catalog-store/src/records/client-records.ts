import { replacingVersion } from '../audit/audit-fields.ts';
import { clientCreatedEvent, clientRevokedEvent, clientUpdatedEvent } from '../audit/client-events.ts';
import { NotFoundError } from '../errors/request-errors.ts';
import type { AuditContext } from '../model/audit-event.ts';
import type { Actor, ClientPatch, NewClient, StoredClient } from '../model/m2m-client.ts';
import { checkClientChangeable, clientIdTaken, unregisteredChannel } from '../write-rules/record-rules.ts';
import { appendAuditEvent } from './audit-records.ts';
import { type ClientRow, SELECT_CLIENT, toClient } from './client-row.ts';
import { checkVersion, type ExpectedVersion } from './expected-version.ts';
import { type RecordWork, row, run, transactionTime } from './record-work.ts';

export function* clientRow(clientId: string): RecordWork<ClientRow | undefined> {
  return yield* row<ClientRow>(`${SELECT_CLIENT} WHERE m.client_id = ?`, clientId);
}

function* existingClient(clientId: string): RecordWork<ClientRow> {
  const found = yield* clientRow(clientId);
  if (found === undefined) throw new NotFoundError('Client', clientId);
  return found;
}

function* channelId(slug: string | null): RecordWork<number | null> {
  if (slug === null) return null;
  const channel = yield* row<{ id: number }>('SELECT id FROM web_channels WHERE slug = ?', slug);
  if (channel === undefined) throw unregisteredChannel('channel');
  return channel.id;
}

export function* createClient(input: NewClient, audit?: AuditContext): RecordWork<StoredClient> {
  if ((yield* clientRow(input.clientId)) !== undefined) throw clientIdTaken();
  const at = yield* transactionTime();
  yield* run(
    `INSERT INTO m2m_clients (client_id, client_name, description, scopes, status, created_at,
       created_by_user_id, created_by_user_name, expires_at, channel_id, secret_hash, token_lifetime_seconds)
     VALUES (?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, ?, ?)`,
    input.clientId,
    input.clientName,
    input.description ?? null,
    JSON.stringify(input.scopes),
    input.createdAt === undefined ? at : Date.parse(input.createdAt),
    input.createdBy.userId,
    input.createdBy.userName,
    input.expiresAt === null ? null : Date.parse(input.expiresAt),
    yield* channelId(input.channel ?? null),
    input.secretHash,
    input.tokenLifetimeSeconds,
  );
  const created = toClient(yield* existingClient(input.clientId));
  if (audit !== undefined) yield* appendAuditEvent(clientCreatedEvent(audit, created));
  return created;
}

export function* updateClient(
  clientId: string,
  patch: ClientPatch,
  audit?: AuditContext,
  expected?: ExpectedVersion,
): RecordWork<StoredClient> {
  const current = yield* existingClient(clientId);
  checkVersion('Client', clientId, current.version, expected);
  checkClientChangeable(clientId, current.status);
  yield* run(
    'UPDATE m2m_clients SET client_name = ?, description = ?, scopes = ?, channel_id = ?, version = version + 1 WHERE client_id = ?',
    patch.clientName ?? current.client_name,
    patch.description ?? current.description,
    patch.scopes === undefined ? current.scopes : JSON.stringify(patch.scopes),
    patch.channel === undefined ? current.channel_id : yield* channelId(patch.channel),
    clientId,
  );
  const updated = toClient(yield* existingClient(clientId));
  if (audit !== undefined)
    yield* appendAuditEvent(
      replacingVersion(clientUpdatedEvent(audit, toClient(current), updated), current.version),
    );
  return updated;
}

/** Stamps the transaction's time, which the audit event of the revoke carries too. */
export function* revokeClient(
  clientId: string,
  by: Actor,
  audit?: AuditContext,
  expected?: ExpectedVersion,
): RecordWork<StoredClient> {
  const current = yield* existingClient(clientId);
  checkVersion('Client', clientId, current.version, expected);
  if (current.status === 'revoked') return toClient(current);
  yield* run(
    `UPDATE m2m_clients SET status = 'revoked', revoked_at = ?, revoked_by_user_id = ?, revoked_by_user_name = ?,
       version = version + 1 WHERE client_id = ?`,
    yield* transactionTime(),
    by.userId,
    by.userName,
    clientId,
  );
  const revoked = toClient(yield* existingClient(clientId));
  if (audit !== undefined)
    yield* appendAuditEvent(replacingVersion(clientRevokedEvent(audit, revoked), current.version));
  return revoked;
}

/** A bookkeeping statement on one client, which must exist. */
export function* updateClientBookkeeping(clientId: string, sql: string, value: number): RecordWork<void> {
  const changed = yield* run(sql, value, clientId);
  if (changed === 0) throw new NotFoundError('Client', clientId);
}
