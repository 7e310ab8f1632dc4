import { describe, expect, it } from 'vitest';
import {
  clientBadges,
  clientChoiceLabel,
  DAY_MS,
  daysUntilExpiry,
  displayStatus,
  isUnused,
} from '../src/domain/clients.ts';

import { client, iso, NOW } from './support/client-fixture.ts';

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

  it('is chosen by a label with its status and its id, so same-named clients are told apart', () => {
    expect(clientChoiceLabel(expired, NOW)).toBe(`Old feed (expired) · ${'A'.repeat(26)}`);
  });
});
