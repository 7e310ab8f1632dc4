import type pg from 'pg';
import { unregisteredChannel } from '../../../write-rules/record-rules.ts';

/** Web channel ids by slug: a handful of rows, read once per write rather than once per slug. */
export async function registeredChannels(client: pg.PoolClient): Promise<Map<string, number>> {
  const result = await client.query<{ id: number; slug: string }>('SELECT id, slug FROM web_channels');
  return new Map(result.rows.map((row) => [row.slug, row.id]));
}

/** A product's per-channel values as [channel id, visible] pairs; every slug must be registered. */
export function channelValues(
  channels: ReadonlyMap<string, number>,
  visibility: Readonly<Record<string, boolean>>,
): Array<readonly [number, boolean]> {
  return Object.entries(visibility).map(([slug, visible]) => {
    const id = channels.get(slug);
    if (id === undefined) throw unregisteredChannel(`webVisibility.${slug}`);
    return [id, visible] as const;
  });
}
