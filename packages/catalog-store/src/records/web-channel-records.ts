import { webChannelCreatedEvent, webChannelRenamedEvent } from '../audit/web-channel-events.ts';
import { NotFoundError } from '../errors/request-errors.ts';
import type { AuditContext } from '../model/audit-event.ts';
import type { WebChannel, WebChannelInput } from '../model/web-channel.ts';
import { channelSlugTaken, checkChannelSlug } from '../write-rules/record-rules.ts';
import { appendAuditEvent } from './audit-records.ts';
import { type RecordWork, row, transactionTime } from './record-work.ts';
import { type ChannelRow, SELECT_CHANNEL, toChannel } from './web-channel-row.ts';

export function* channelRow(slug: string): RecordWork<ChannelRow | undefined> {
  return yield* row<ChannelRow>(`${SELECT_CHANNEL} WHERE slug = ?`, slug);
}

/** Registers a channel created at `at`; the caller's write transaction keeps the slug check true to the insert. */
export function* insertWebChannel(input: WebChannelInput, at: number): RecordWork<WebChannel> {
  checkChannelSlug(input.slug);
  if ((yield* channelRow(input.slug)) !== undefined) throw channelSlugTaken();
  const inserted = yield* row<ChannelRow>(
    'INSERT INTO web_channels (slug, name, created_at) VALUES (?, ?, ?) RETURNING slug, name, created_at',
    input.slug,
    input.name ?? input.slug,
    at,
  );
  return toChannel(inserted as ChannelRow);
}

export function* createWebChannel(input: WebChannelInput, audit?: AuditContext): RecordWork<WebChannel> {
  const created = yield* insertWebChannel(input, yield* transactionTime());
  if (audit !== undefined) yield* appendAuditEvent(webChannelCreatedEvent(audit, created));
  return created;
}

export function* renameWebChannel(slug: string, name: string, audit?: AuditContext): RecordWork<WebChannel> {
  const before = yield* channelRow(slug);
  if (before === undefined) throw new NotFoundError('Web channel', slug);
  const updated = yield* row<ChannelRow>(
    'UPDATE web_channels SET name = ? WHERE slug = ? RETURNING slug, name, created_at',
    name,
    slug,
  );
  const renamed = toChannel(updated as ChannelRow);
  if (audit !== undefined) yield* appendAuditEvent(webChannelRenamedEvent(audit, toChannel(before), renamed));
  return renamed;
}
