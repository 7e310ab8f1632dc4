import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../src/domain/clients.ts';
import { lifetimeDays, replacementDraft } from '../src/domain/replacement.ts';
import { client, iso, NOW } from './support/client-fixture.ts';

describe('the replacement of a client (secrets are never rotated in place)', () => {
  it('starts from every field of the old client, named as its replacement', () => {
    const old = client({
      clientName: 'Web shop',
      description: 'Nightly sync',
      scopes: ['products.read', 'brands.read'],
      channel: 'eu-shop',
      createdAt: iso(NOW - 10 * DAY_MS),
      expiresAt: iso(NOW + 20 * DAY_MS),
    });
    expect(replacementDraft(old)).toEqual({
      clientName: 'Web shop replacement',
      description: 'Nightly sync',
      scopes: ['products.read', 'brands.read'],
      expiresInDays: '30',
      channel: 'eu-shop',
    });
  });

  it('a name at the 100-character limit is shortened to keep it valid', () => {
    const name = replacementDraft(client({ clientName: 'n'.repeat(100) })).clientName;
    expect(name).toHaveLength(100);
    expect(name.endsWith(' replacement')).toBe(true);
  });

  it("gets a fresh expiry of the old client's lifetime (1–365 days), none when the old one never expired", () => {
    expect(lifetimeDays({ createdAt: iso(NOW), expiresAt: null })).toBe('');
    expect(lifetimeDays({ createdAt: iso(NOW), expiresAt: iso(NOW + 90 * DAY_MS) })).toBe('90');
    expect(lifetimeDays({ createdAt: iso(NOW), expiresAt: iso(NOW + 3_600_000) })).toBe('1');
    expect(lifetimeDays({ createdAt: iso(NOW), expiresAt: iso(NOW + 500 * DAY_MS) })).toBe('365');
  });
});
