import { replacingVersion } from '../audit/audit-fields.ts';
import { webChannelCreatedEvent, webChannelRenamedEvent } from '../audit/web-channel-events.ts';
import { NotFoundError } from '../errors/request-errors.ts';
import type { AuditContext } from '../model/audit-event.ts';
import { registryVersion, type WebChannel, type WebChannelInput } from '../model/web-channel.ts';
import {
  channelNameKey,
  channelNameTaken,
  channelSlugTaken,
  checkChannelSlug,
} from '../write-rules/record-rules.ts';
import { appendAuditEvent } from './audit-records.ts';
import { checkVersion, type ExpectedVersion } from './expected-version.ts';
import { type RecordWork, row, rows, transactionTime } from './record-work.ts';
import { type ChannelRow, SELECT_CHANNEL, toChannel } from './web-channel-row.ts';

export function* channelRow(slug: string): RecordWork<ChannelRow | undefined> {
  return yield* row<ChannelRow>(`${SELECT_CHANNEL} WHERE slug = ?`, slug);
}

/**
 * Refuses a name another channel has, whatever its letter case. Compared here rather than in SQL so
 * that both engines fold case alike (SQLite's lower() folds ASCII only, PostgreSQL's the locale's).
 */
function* checkNameFree(name: string, slug: string): RecordWork<void> {
  const channels = yield* rows<{ slug: string; name: string }>('SELECT slug, name FROM web_channels');
  const key = channelNameKey(name);
  if (channels.some((channel) => channel.slug !== slug && channelNameKey(channel.name) === key))
    throw channelNameTaken();
}

/** Registers a channel created at `at`; the caller's write transaction keeps the slug check true to the insert. */
export function* insertWebChannel(input: WebChannelInput, at: number): RecordWork<WebChannel> {
  checkChannelSlug(input.slug);
  if ((yield* channelRow(input.slug)) !== undefined) throw channelSlugTaken();
  yield* checkNameFree(input.name ?? input.slug, input.slug);
  const inserted = yield* row<ChannelRow>(
    'INSERT INTO web_channels (slug, name, created_at) VALUES (?, ?, ?) RETURNING slug, name, created_at, version',
    input.slug,
    input.name ?? input.slug,
    at,
  );
  return toChannel(inserted as ChannelRow);
}

/** Checks the registry's version (model/web-channel.ts) against the one a conditional write expects. */
function* checkRegistryVersion(expected: ExpectedVersion): RecordWork<void> {
  if (expected === undefined) return;
  const versions = yield* rows<{ version: number }>('SELECT version FROM web_channels');
  checkVersion('Web channel registry', 'web-channels', registryVersion(versions), expected);
}

export function* createWebChannel(
  input: WebChannelInput,
  audit?: AuditContext,
  expected?: ExpectedVersion,
): RecordWork<WebChannel> {
  yield* checkRegistryVersion(expected);
  const created = yield* insertWebChannel(input, yield* transactionTime());
  if (audit !== undefined) yield* appendAuditEvent(webChannelCreatedEvent(audit, created));
  return created;
}

export function* renameWebChannel(
  slug: string,
  name: string,
  audit?: AuditContext,
  expected?: ExpectedVersion,
): RecordWork<WebChannel> {
  const before = yield* channelRow(slug);
  if (before === undefined) throw new NotFoundError('Web channel', slug);
  yield* checkRegistryVersion(expected);
  yield* checkNameFree(name, slug);
  const updated = yield* row<ChannelRow>(
    'UPDATE web_channels SET name = ?, version = version + 1 WHERE slug = ? RETURNING slug, name, created_at, version',
    name,
    slug,
  );
  const renamed = toChannel(updated as ChannelRow);
  if (audit !== undefined)
    yield* appendAuditEvent(
      replacingVersion(webChannelRenamedEvent(audit, toChannel(before), renamed), before.version),
    );
  return renamed;
}
