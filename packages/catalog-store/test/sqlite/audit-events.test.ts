import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditContext, AuditEvent, AuditFilter } from '../../src/index.ts';
import { type SqliteStoreHandle, sqliteStore } from '../support/sqlite-factory.ts';

const OPERATOR: AuditContext = {
  actor: { kind: 'operator', name: 'operator-cli' },
  sourceIp: null,
  requestId: null,
};
const ADA: AuditContext = {
  actor: { kind: 'admin', userId: 'u-ada', email: 'ada@example.com' },
  sourceIp: '192.0.2.10',
  requestId: 'req-ada',
};

describe('audit_events in SQLite', () => {
  let handle: SqliteStoreHandle;
  afterEach(async () => {
    vi.useRealTimers();
    await handle.dispose();
  });

  /** Appends one sign-in per time, with the store's clock set to that time. */
  async function appendAt(times: readonly number[], context: (index: number) => AuditContext): Promise<void> {
    vi.useFakeTimers({ toFake: ['Date'] });
    for (const [index, time] of times.entries()) {
      vi.setSystemTime(time);
      await handle.store.audit.append({
        ...context(index),
        action: 'admin.sign-in',
        target: { type: 'admin-user', id: `u${index}` },
      });
    }
    vi.useRealTimers();
  }

  const targets = (events: AuditEvent[]) => events.map((event) => event.target.id);
  const list = (filter: Partial<AuditFilter>) => handle.store.audit.list({ limit: 100, ...filter });

  it('refuses, in the engine, any UPDATE or DELETE of an event, from any connection', async () => {
    handle = await sqliteStore();
    await handle.store.brands.create({ name: 'Acme' }, OPERATOR);
    await handle.store.webChannels.create({ slug: 'shop' }, OPERATOR);
    const before = (await list({})).events;
    const side = new DatabaseSync(handle.databasePath);
    try {
      expect(() => side.exec("UPDATE audit_events SET action = 'brand.archive'")).toThrow(/append-only/);
      expect(() => side.exec("UPDATE audit_events SET details = NULL WHERE action = 'brand.create'")).toThrow(
        /append-only/,
      );
      expect(() => side.exec('DELETE FROM audit_events')).toThrow(/append-only/);
      expect(() => side.exec("DELETE FROM audit_events WHERE action = 'web-channel.create'")).toThrow(
        /append-only/,
      );
    } finally {
      side.close();
    }
    expect((await list({})).events).toEqual(before);
  });

  it('selects by the time of appending: since inclusive, until exclusive, between and past the events', async () => {
    handle = await sqliteStore();
    const t0 = Date.parse('2026-03-01T10:00:00.000Z');
    await appendAt([t0, t0 + 1000, t0 + 1000, t0 + 2000, t0 + 3000], () => ADA);
    const iso = (ms: number) => new Date(ms).toISOString();
    expect(targets((await list({ since: iso(t0 + 1000) })).events)).toEqual(['u4', 'u3', 'u2', 'u1']);
    expect(targets((await list({ since: iso(t0 + 1500) })).events)).toEqual(['u4', 'u3']);
    expect(targets((await list({ until: iso(t0 + 1000) })).events)).toEqual(['u0']);
    expect(targets((await list({ until: iso(t0 + 1001) })).events)).toEqual(['u2', 'u1', 'u0']);
    expect(targets((await list({ since: iso(t0 + 1000), until: iso(t0 + 3000) })).events)).toEqual([
      'u3',
      'u2',
      'u1',
    ]);
    expect(targets((await list({ since: iso(t0 + 3001) })).events)).toEqual([]);
    expect(targets((await list({ until: iso(t0 + 9000) })).events)).toHaveLength(5);
    expect(targets((await list({ since: iso(t0 - 9000), until: iso(t0) })).events)).toEqual([]);
    expect((await list({})).events.map((event) => event.occurredAt)).toContain('2026-03-01T10:00:01.000Z');
  });

  it('never dates an event before the one appended ahead of it, whatever the clock says', async () => {
    handle = await sqliteStore();
    const t0 = Date.parse('2026-03-01T10:00:00.000Z');
    await appendAt([t0, t0 - 60_000, t0 + 5], () => ADA);
    const [third, second, first] = (await list({})).events;
    expect(first?.occurredAt).toBe(new Date(t0).toISOString());
    expect(second?.occurredAt).toBe(new Date(t0).toISOString());
    expect(third?.occurredAt).toBe(new Date(t0 + 5).toISOString());
  });

  it('pages an actor and time window without gaps or repeats', async () => {
    handle = await sqliteStore();
    const t0 = Date.parse('2026-03-01T10:00:00.000Z');
    await appendAt(
      Array.from({ length: 30 }, (_, index) => t0 + index * 1000),
      (index) => (index % 4 === 0 ? OPERATOR : ADA),
    );
    const filter = {
      actor: 'ADA@example.com',
      since: new Date(t0 + 3000).toISOString(),
      until: new Date(t0 + 27_000).toISOString(),
      limit: 5,
    };
    const seen: AuditEvent[] = [];
    let page = await list(filter);
    seen.push(...page.events);
    while (page.nextBefore !== null && seen.length < 100) {
      page = await list({ ...filter, before: page.nextBefore });
      seen.push(...page.events);
    }
    const expected = Array.from({ length: 24 }, (_, offset) => 26 - offset)
      .filter((index) => index % 4 !== 0)
      .map((index) => `u${index}`);
    expect(targets(seen)).toEqual(expected);
  });
});
