import { describe, expect, it } from 'vitest';
import type { M2MClient } from '../src/api/types.ts';
import {
  clientBadges,
  clientChoiceLabel,
  DAY_MS,
  daysUntilExpiry,
  displayStatus,
  filterClients,
  formatDate,
  isUnused,
  sortClients,
} from '../src/domain/clients.ts';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

function client(overrides: Partial<M2MClient> = {}): M2MClient {
  return {
    clientId: 'A'.repeat(26),
    clientName: 'Web shop',
    scopes: ['products.read'],
    status: 'active',
    createdAt: iso(NOW - 2 * DAY_MS),
    createdBy: { userId: 'u1', userName: 'ops@example.com' },
    expiresAt: null,
    lastUsedAt: null,
    usageCount: 0,
    revokedAt: null,
    ...overrides,
  };
}

describe('clients that stand out', () => {
  it('expiring within 14 days', () => {
    expect(clientBadges(client({ expiresAt: iso(NOW + 3 * DAY_MS) }), NOW)).toEqual([
      { kind: 'expiring', days: 3, text: 'Expires in 3 days' },
    ]);
    expect(clientBadges(client({ expiresAt: iso(NOW + 14 * DAY_MS) }), NOW)[0]?.text).toBe(
      'Expires in 14 days',
    );
    expect(clientBadges(client({ expiresAt: iso(NOW + 3_600_000) }), NOW)[0]?.text).toBe('Expires in 1 day');
    expect(clientBadges(client({ expiresAt: iso(NOW + 14 * DAY_MS + 1) }), NOW)).toEqual([]);
    // Past its expiry a client is shown as expired (its status), not as an active one with a badge.
    expect(clientBadges(client({ expiresAt: iso(NOW - 1) }), NOW)).toEqual([]);
    expect(daysUntilExpiry(client(), NOW)).toBeNull();
  });

  it('unused for 30 days: last use older than 30 days, or never used and created over 30 days ago', () => {
    expect(
      isUnused(client({ lastUsedAt: iso(NOW - 31 * DAY_MS), createdAt: iso(NOW - 90 * DAY_MS) }), NOW),
    ).toBe(true);
    expect(
      isUnused(client({ lastUsedAt: iso(NOW - 29 * DAY_MS), createdAt: iso(NOW - 90 * DAY_MS) }), NOW),
    ).toBe(false);
    expect(isUnused(client({ createdAt: iso(NOW - 31 * DAY_MS) }), NOW)).toBe(true);
    expect(isUnused(client({ createdAt: iso(NOW - 29 * DAY_MS) }), NOW)).toBe(false);
    expect(clientBadges(client({ createdAt: iso(NOW - 40 * DAY_MS) }), NOW)).toEqual([
      { kind: 'unused', text: 'Unused for 30+ days' },
    ]);
  });

  it('revoked clients never stand out', () => {
    expect(
      clientBadges(
        client({ status: 'revoked', createdAt: iso(NOW - 90 * DAY_MS), expiresAt: iso(NOW + DAY_MS) }),
        NOW,
      ),
    ).toEqual([]);
  });
});

describe('an active client past its expiry', () => {
  const expired = client({ clientName: 'Old feed', expiresAt: iso(NOW - 1) });

  it('is shown as expired, and never as active', () => {
    expect(displayStatus(expired, NOW)).toBe('expired');
    expect(displayStatus(client({ expiresAt: iso(NOW + 1) }), NOW)).toBe('active');
    expect(displayStatus(client({ status: 'revoked', expiresAt: iso(NOW - 1) }), NOW)).toBe('revoked');
  });

  it('is counted by the Expired filter, not by Active', () => {
    const live = client({ clientId: 'D'.repeat(26), clientName: 'Live feed' });
    expect(filterClients([expired, live], { status: 'active', text: '' }, NOW)).toEqual([live]);
    expect(filterClients([expired, live], { status: 'expired', text: '' }, NOW)).toEqual([expired]);
  });

  it('is chosen by a label with its status and its id, so same-named clients are told apart', () => {
    expect(clientChoiceLabel(expired, NOW)).toBe(`Old feed (expired) · ${'A'.repeat(26)}`);
  });
});

describe('filtering', () => {
  const clients = [
    client({ clientId: 'A'.repeat(26), clientName: 'Web shop', channel: 'eu-shop' }),
    client({
      clientId: 'B'.repeat(26),
      clientName: 'ERP sync',
      description: 'Nightly import',
      status: 'revoked',
    }),
    client({ clientId: 'C'.repeat(26), clientName: 'Marketplace' }),
  ];
  const names = (list: M2MClient[]) => list.map((c) => c.clientName);

  it('by status', () => {
    expect(names(filterClients(clients, { status: 'all', text: '' }, NOW))).toEqual([
      'Web shop',
      'ERP sync',
      'Marketplace',
    ]);
    expect(names(filterClients(clients, { status: 'revoked', text: '' }, NOW))).toEqual(['ERP sync']);
    expect(names(filterClients(clients, { status: 'active', text: '' }, NOW))).toEqual([
      'Web shop',
      'Marketplace',
    ]);
  });

  it('by text in name, description, clientId and channel, case-insensitively', () => {
    expect(names(filterClients(clients, { status: 'all', text: 'NIGHTLY' }, NOW))).toEqual(['ERP sync']);
    expect(names(filterClients(clients, { status: 'all', text: 'eu-shop' }, NOW))).toEqual(['Web shop']);
    expect(names(filterClients(clients, { status: 'all', text: 'cccc' }, NOW))).toEqual(['Marketplace']);
    expect(names(filterClients(clients, { status: 'all', text: 'web market' }, NOW))).toEqual([]);
    expect(names(filterClients(clients, { status: 'active', text: 'erp' }, NOW))).toEqual([]);
  });
});

describe('sorting by last use', () => {
  const a = client({ clientName: 'a', lastUsedAt: iso(NOW - DAY_MS), createdAt: iso(NOW - 5 * DAY_MS) });
  const b = client({ clientName: 'b', lastUsedAt: iso(NOW - 3 * DAY_MS), createdAt: iso(NOW - 4 * DAY_MS) });
  const n = client({ clientName: 'n', lastUsedAt: null, createdAt: iso(NOW - DAY_MS) });
  const names = (list: M2MClient[]) => list.map((c) => c.clientName);

  it('most recent first, never used last', () => {
    expect(names(sortClients([n, b, a], 'last-used-desc'))).toEqual(['a', 'b', 'n']);
  });
  it('least recent first, never used first', () => {
    expect(names(sortClients([a, n, b], 'last-used-asc'))).toEqual(['n', 'b', 'a']);
  });
  it('newest created first', () => {
    expect(names(sortClients([a, b, n], 'created-desc'))).toEqual(['n', 'b', 'a']);
  });
  it('does not change its input', () => {
    const list = [n, b, a];
    sortClients(list, 'last-used-desc');
    expect(names(list)).toEqual(['n', 'b', 'a']);
  });
});

it('dates show as YYYY-MM-DD or never', () => {
  expect(formatDate(null)).toBe('never');
  expect(formatDate('2025-06-01T23:30:00Z')).toBe('2025-06-01');
});
