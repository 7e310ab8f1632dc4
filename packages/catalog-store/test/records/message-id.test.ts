import { describe, expect, it } from 'vitest';
import { newMessageId } from '../../src/records/webhook-outbox-records.ts';

describe('webhook message ids', () => {
  it("keep the contract's pattern (msg_ and 26 alphanumerics) and are distinct", () => {
    const ids = Array.from({ length: 10_000 }, () => newMessageId());
    expect(ids.filter((id) => !/^msg_[a-zA-Z0-9]{26}$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sort, compared bytewise as SQLite compares text, in the order of their creation times', () => {
    const times = [0, 1, 61, 62, 1_700_000_000_000, 1_800_000_000_000, 62 ** 8 - 1];
    const ids = times.map((time) => newMessageId(time));
    const bytewise = [...ids].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(bytewise).toEqual(ids);
  });
});
