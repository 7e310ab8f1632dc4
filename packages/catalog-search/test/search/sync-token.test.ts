import { randomBytes } from 'node:crypto';
import { InvalidSyncTokenError } from '@catalog/store';
import { describe, expect, it } from 'vitest';
import {
  decodeSyncToken,
  encodeSyncToken,
  SYNC_TOKEN_TTL_MS,
  type SyncCursor,
} from '../../src/paging/sync-token.ts';

const secret = randomBytes(32);
const now = Date.UTC(2030, 0, 1);
const cursor: SyncCursor = {
  queryHash: 'q1',
  key: [1, 'Drill'],
  seq: 42,
  total: 10_000,
  totalIsLowerBound: true,
  issuedAt: now,
};

describe('syncToken', () => {
  it('round-trips the position, the total and the query binding', () => {
    const token = encodeSyncToken(secret, cursor);
    expect(decodeSyncToken(secret, token, { queryHash: 'q1', now: now + 1000 })).toEqual(cursor);
  });

  it('is stale after 24 hours', () => {
    const token = encodeSyncToken(secret, cursor);
    expect(() =>
      decodeSyncToken(secret, token, { queryHash: 'q1', now: now + SYNC_TOKEN_TTL_MS + 1 }),
    ).toThrow(InvalidSyncTokenError);
    expect(decodeSyncToken(secret, token, { queryHash: 'q1', now: now + SYNC_TOKEN_TTL_MS }).seq).toBe(42);
  });

  it('is refused when signed with another secret, issued in the future, or for another query', () => {
    const token = encodeSyncToken(secret, cursor);
    expect(() => decodeSyncToken(randomBytes(32), token, { queryHash: 'q1', now })).toThrow(
      InvalidSyncTokenError,
    );
    expect(() =>
      decodeSyncToken(secret, encodeSyncToken(secret, { ...cursor, issuedAt: now + 3_600_000 }), {
        queryHash: 'q1',
        now,
      }),
    ).toThrow(InvalidSyncTokenError);
    expect(() => decodeSyncToken(secret, token, { queryHash: 'q2', now })).toThrow(InvalidSyncTokenError);
  });

  it('reports why it was refused in details.reason', () => {
    try {
      decodeSyncToken(secret, 'v2.x.y', { queryHash: 'q1', now });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        status: 400,
        code: 'INVALID_SYNC_TOKEN',
        details: { reason: 'bad signature' },
      });
    }
  });
});
