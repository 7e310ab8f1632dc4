import type { DatabaseSync } from 'node:sqlite';
import { webChannelCreatedEvent, webChannelRenamedEvent } from '../../audit/web-channel-events.ts';
import { NotFoundError } from '../../errors/request-errors.ts';
import type { AuditContext } from '../../model/audit-event.ts';
import type { WebChannel, WebChannelInput } from '../../model/web-channel.ts';
import type { WebChannelStore } from '../../ports/web-channel-store.ts';
import { channelSlugTaken, checkChannelSlug } from '../../write-rules/record-rules.ts';
import { toIso } from '../timestamps.ts';
import { appendAuditEvent } from './records/append-audit-event.ts';
import { statement } from './statement-cache.ts';
import { inWriteTransaction } from './transaction.ts';

export interface ChannelRow {
  slug: string;
  name: string;
  created_at: number;
}

export function toChannel(row: ChannelRow): WebChannel {
  return { slug: row.slug, name: row.name, createdAt: toIso(row.created_at) };
}

export function insertWebChannel(db: DatabaseSync, input: WebChannelInput, ts: number): void {
  checkChannelSlug(input.slug);
  if (statement(db, 'SELECT 1 FROM web_channels WHERE slug = ?').get(input.slug) !== undefined) {
    throw channelSlugTaken();
  }
  statement(db, 'INSERT INTO web_channels (slug, name, created_at) VALUES (?, ?, ?)').run(
    input.slug,
    input.name ?? input.slug,
    ts,
  );
}

export class SqliteWebChannelStore implements WebChannelStore {
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  #row(slug: string): ChannelRow | undefined {
    return statement(this.#db, 'SELECT slug, name, created_at FROM web_channels WHERE slug = ?').get(slug) as
      | ChannelRow
      | undefined;
  }

  async list(): Promise<WebChannel[]> {
    const rows = statement(this.#db, 'SELECT slug, name, created_at FROM web_channels ORDER BY slug').all();
    return (rows as unknown as ChannelRow[]).map(toChannel);
  }

  async get(slug: string): Promise<WebChannel | undefined> {
    const row = this.#row(slug);
    return row === undefined ? undefined : toChannel(row);
  }

  async create(input: WebChannelInput, audit?: AuditContext): Promise<WebChannel> {
    return inWriteTransaction(this.#db, () => {
      insertWebChannel(this.#db, input, Date.now());
      const created = toChannel(this.#row(input.slug) as ChannelRow);
      if (audit !== undefined) appendAuditEvent(this.#db, webChannelCreatedEvent(audit, created));
      return created;
    });
  }

  async rename(slug: string, name: string, audit?: AuditContext): Promise<WebChannel> {
    return inWriteTransaction(this.#db, () => {
      const before = this.#row(slug);
      if (before === undefined) throw new NotFoundError('Web channel', slug);
      statement(this.#db, 'UPDATE web_channels SET name = ? WHERE slug = ?').run(name, slug);
      const renamed = toChannel(this.#row(slug) as ChannelRow);
      if (audit !== undefined) {
        appendAuditEvent(this.#db, webChannelRenamedEvent(audit, toChannel(before), renamed));
      }
      return renamed;
    });
  }
}
