import type pg from 'pg';
import { webChannelCreatedEvent, webChannelRenamedEvent } from '../../audit/web-channel-events.ts';
import { NotFoundError } from '../../errors/request-errors.ts';
import type { AuditContext } from '../../model/audit-event.ts';
import type { WebChannel, WebChannelInput } from '../../model/web-channel.ts';
import type { WebChannelStore } from '../../ports/web-channel-store.ts';
import { channelSlugTaken, checkChannelSlug } from '../../write-rules/record-rules.ts';
import { toIso } from '../timestamps.ts';
import { appendAuditEvent } from './records/append-audit-event.ts';
import { inWriteTransaction } from './transaction.ts';

export interface ChannelRow {
  slug: string;
  name: string;
  created_at: number;
}

export const SELECT_CHANNEL = 'SELECT slug, name, created_at FROM web_channels';

export function toChannel(row: ChannelRow): WebChannel {
  return { slug: row.slug, name: row.name, createdAt: toIso(row.created_at) };
}

async function channelRow(db: pg.Pool | pg.PoolClient, slug: string): Promise<ChannelRow | undefined> {
  const result = await db.query<ChannelRow>(`${SELECT_CHANNEL} WHERE slug = $1`, [slug]);
  return result.rows[0];
}

/** Registers a channel inside the caller's write transaction, which keeps the slug check true to the insert. */
export async function insertWebChannel(
  client: pg.PoolClient,
  input: WebChannelInput,
  ts: number,
): Promise<WebChannel> {
  checkChannelSlug(input.slug);
  if ((await channelRow(client, input.slug)) !== undefined) {
    throw channelSlugTaken();
  }
  const result = await client.query<ChannelRow>(
    'INSERT INTO web_channels (slug, name, created_at) VALUES ($1, $2, $3) RETURNING slug, name, created_at',
    [input.slug, input.name ?? input.slug, ts],
  );
  return toChannel(result.rows[0] as ChannelRow);
}

export class PostgresWebChannelStore implements WebChannelStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async list(): Promise<WebChannel[]> {
    // Byte order, as the embedded engine sorts, whatever the database's collation.
    const result = await this.#pool.query<ChannelRow>(`${SELECT_CHANNEL} ORDER BY slug COLLATE "C"`);
    return result.rows.map(toChannel);
  }

  async get(slug: string): Promise<WebChannel | undefined> {
    const row = await channelRow(this.#pool, slug);
    return row === undefined ? undefined : toChannel(row);
  }

  async create(input: WebChannelInput, audit?: AuditContext): Promise<WebChannel> {
    return inWriteTransaction(this.#pool, async (client, ts) => {
      const created = await insertWebChannel(client, input, ts);
      if (audit !== undefined) await appendAuditEvent(client, webChannelCreatedEvent(audit, created), ts);
      return created;
    });
  }

  async rename(slug: string, name: string, audit?: AuditContext): Promise<WebChannel> {
    return inWriteTransaction(this.#pool, async (client, ts) => {
      const before = await channelRow(client, slug);
      if (before === undefined) throw new NotFoundError('Web channel', slug);
      const result = await client.query<ChannelRow>(
        'UPDATE web_channels SET name = $1 WHERE slug = $2 RETURNING slug, name, created_at',
        [name, slug],
      );
      const renamed = toChannel(result.rows[0] as ChannelRow);
      if (audit !== undefined) {
        await appendAuditEvent(client, webChannelRenamedEvent(audit, toChannel(before), renamed), ts);
      }
      return renamed;
    });
  }
}
