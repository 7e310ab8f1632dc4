import { toIso } from '../adapters/timestamps.ts';
import type { WebChannel } from '../model/web-channel.ts';

// A web_channels row, the same columns on both engines, as a WebChannel.

export interface ChannelRow {
  slug: string;
  name: string;
  created_at: number;
  version: number;
}

/** The SELECT every channel read starts with. */
export const SELECT_CHANNEL = 'SELECT slug, name, created_at, version FROM web_channels';

export function toChannel(row: ChannelRow): WebChannel {
  return { slug: row.slug, name: row.name, createdAt: toIso(row.created_at), version: row.version };
}
