import { describe, expect, it } from 'vitest';
import { filterClients, matchesExpiry, NO_FILTER, UNBOUND } from '../src/domain/client-filters.ts';
import { DAY_MS } from '../src/domain/clients.ts';
import { client, iso, NOW, names } from './support/client-fixture.ts';

const clients = [
  client({ clientId: 'A'.repeat(26), clientName: 'Web shop', channel: 'eu-shop' }),
  client({
    clientId: 'B'.repeat(26),
    clientName: 'ERP sync',
    description: 'Nightly import',
    status: 'revoked',
    scopes: ['products.read', 'brands.read'],
  }),
  client({ clientId: 'C'.repeat(26), clientName: 'Marketplace', scopes: ['brands.read'] }),
];

describe('filtering the clients list', () => {
  it('no filter keeps every client in its order', () => {
    expect(names(filterClients(clients, NO_FILTER, NOW))).toEqual(['Web shop', 'ERP sync', 'Marketplace']);
  });

  it('status: active and revoked as shown; an active client past its expiry counts as expired, not active', () => {
    const expired = client({ clientId: 'D'.repeat(26), clientName: 'Old feed', expiresAt: iso(NOW - 1) });
    const all = [...clients, expired];
    expect(names(filterClients(all, { ...NO_FILTER, status: 'revoked' }, NOW))).toEqual(['ERP sync']);
    expect(names(filterClients(all, { ...NO_FILTER, status: 'active' }, NOW))).toEqual([
      'Web shop',
      'Marketplace',
    ]);
    expect(names(filterClients(all, { ...NO_FILTER, status: 'expired' }, NOW))).toEqual(['Old feed']);
  });

  it('text: every word in name, description, client ID or channel, in any letter case', () => {
    const byText = (text: string) => names(filterClients(clients, { ...NO_FILTER, text }, NOW));
    expect(byText('NIGHTLY')).toEqual(['ERP sync']);
    expect(byText('eu-shop')).toEqual(['Web shop']);
    expect(byText('cccc')).toEqual(['Marketplace']);
    expect(byText('web market')).toEqual([]);
  });

  it('scope: the clients granted that scope, whatever else they have', () => {
    expect(names(filterClients(clients, { ...NO_FILTER, scope: 'brands.read' }, NOW))).toEqual([
      'ERP sync',
      'Marketplace',
    ]);
    expect(names(filterClients(clients, { ...NO_FILTER, scope: 'products.write' }, NOW))).toEqual([]);
  });

  it('channel: a slug matches the clients bound to it; Unbound the clients bound to none', () => {
    expect(names(filterClients(clients, { ...NO_FILTER, channel: 'eu-shop' }, NOW))).toEqual(['Web shop']);
    expect(names(filterClients(clients, { ...NO_FILTER, channel: UNBOUND }, NOW))).toEqual([
      'ERP sync',
      'Marketplace',
    ]);
  });

  it('filters combine: all must match', () => {
    expect(
      names(filterClients(clients, { ...NO_FILTER, scope: 'brands.read', status: 'active' }, NOW)),
    ).toEqual(['Marketplace']);
  });
});

describe('the expiry filter', () => {
  const at = (ms: number | null) => ({ expiresAt: ms === null ? null : iso(ms) });

  it('expiring within 14 days: after now and at most 14 days ahead', () => {
    expect(matchesExpiry(at(NOW + DAY_MS), 'soon', NOW)).toBe(true);
    expect(matchesExpiry(at(NOW + 14 * DAY_MS), 'soon', NOW)).toBe(true);
    expect(matchesExpiry(at(NOW + 14 * DAY_MS + 1), 'soon', NOW)).toBe(false);
    expect(matchesExpiry(at(NOW), 'soon', NOW)).toBe(false);
    expect(matchesExpiry(at(null), 'soon', NOW)).toBe(false);
  });

  it('no expiry: only the clients that never expire', () => {
    expect(matchesExpiry(at(null), 'never', NOW)).toBe(true);
    expect(matchesExpiry(at(NOW + 400 * DAY_MS), 'never', NOW)).toBe(false);
  });

  it('expired: the expiry has passed (at the instant itself, too)', () => {
    expect(matchesExpiry(at(NOW), 'past', NOW)).toBe(true);
    expect(matchesExpiry(at(NOW - DAY_MS), 'past', NOW)).toBe(true);
    expect(matchesExpiry(at(NOW + 1), 'past', NOW)).toBe(false);
    expect(matchesExpiry(at(null), 'past', NOW)).toBe(false);
  });
});
