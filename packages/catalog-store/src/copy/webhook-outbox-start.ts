import type pg from 'pg';

/**
 * The copied webhook subscriptions hear of the writes made after the copy, as a subscription made
 * then would: the feed is numbered anew (fresh-change-feed.ts), so each subscription's
 * `from_sequence` and the outbox's cursor start at its last entry. The delivery log, and deliveries
 * still waiting on the source, are not copied: their sequences name entries of the source's feed.
 * A receiver's next sync finds the changes they told of.
 */
export async function startWebhookOutboxAt(client: pg.PoolClient, sequence: number): Promise<void> {
  await client.query('UPDATE webhook_subscriptions SET from_sequence = $1', [sequence]);
  await client.query('UPDATE webhook_outbox_cursor SET through = $1 WHERE id = 1', [sequence]);
}
