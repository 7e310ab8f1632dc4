import { toIso, toIsoOrNull } from '../adapters/timestamps.ts';
import type { ClientScope, ClientStatus, StoredClient } from '../model/m2m-client.ts';

// An m2m_clients row joined with its channel's slug, the same on both engines, as a StoredClient.

export interface ClientRow {
  client_id: string;
  client_name: string;
  description: string | null;
  scopes: string;
  status: ClientStatus;
  created_at: number;
  created_by_user_id: string;
  created_by_user_name: string;
  expires_at: number | null;
  last_used_at: number | null;
  usage_count: number;
  revoked_at: number | null;
  revoked_by_user_id: string | null;
  revoked_by_user_name: string | null;
  channel: string | null;
  channel_id: number | null;
  secret_hash: string;
  token_lifetime_seconds: number;
  version: number;
}

/** The SELECT every client read starts with. */
export const SELECT_CLIENT = `SELECT m.*, c.slug AS channel FROM m2m_clients m LEFT JOIN web_channels c ON c.id = m.channel_id`;

export function toClient(row: ClientRow): StoredClient {
  const client: StoredClient = {
    clientId: row.client_id,
    clientName: row.client_name,
    scopes: JSON.parse(row.scopes) as ClientScope[],
    status: row.status,
    createdAt: toIso(row.created_at),
    createdBy: { userId: row.created_by_user_id, userName: row.created_by_user_name },
    expiresAt: toIsoOrNull(row.expires_at),
    lastUsedAt: toIsoOrNull(row.last_used_at),
    usageCount: row.usage_count,
    revokedAt: toIsoOrNull(row.revoked_at),
    revokedBy:
      row.revoked_by_user_id === null
        ? null
        : { userId: row.revoked_by_user_id, userName: row.revoked_by_user_name ?? '' },
    channel: row.channel,
    secretHash: row.secret_hash,
    tokenLifetimeSeconds: row.token_lifetime_seconds,
    version: row.version,
  };
  if (row.description !== null) client.description = row.description;
  return client;
}
