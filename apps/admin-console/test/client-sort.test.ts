import { describe, expect, it } from 'vitest';
import { DEFAULT_SORT, sortClients, toggleSort } from '../src/domain/client-sort.ts';
import { DAY_MS } from '../src/domain/clients.ts';
import { client, iso, NOW, names } from './support/client-fixture.ts';

const a = client({
  clientId: 'A'.repeat(26),
  clientName: 'alpha',
  createdAt: iso(NOW - 5 * DAY_MS),
  lastUsedAt: iso(NOW - DAY_MS),
  expiresAt: iso(NOW + 30 * DAY_MS),
});
const b = client({
  clientId: 'B'.repeat(26),
  clientName: 'Bravo',
  createdAt: iso(NOW - 4 * DAY_MS),
  lastUsedAt: iso(NOW - 3 * DAY_MS),
  expiresAt: iso(NOW + 5 * DAY_MS),
});
const n = client({ clientId: 'C'.repeat(26), clientName: 'charlie', createdAt: iso(NOW - DAY_MS) });

describe('sorting the clients list', () => {
  it('by default the newest client first', () => {
    expect(names(sortClients([a, b, n], DEFAULT_SORT))).toEqual(['charlie', 'Bravo', 'alpha']);
  });

  it('by name in either direction, ignoring letter case', () => {
    expect(names(sortClients([n, b, a], { key: 'name', direction: 'asc' }))).toEqual([
      'alpha',
      'Bravo',
      'charlie',
    ]);
    expect(names(sortClients([a, b, n], { key: 'name', direction: 'desc' }))).toEqual([
      'charlie',
      'Bravo',
      'alpha',
    ]);
  });

  it('a client without the date (never used, never expires) comes last in both directions', () => {
    expect(names(sortClients([n, b, a], { key: 'lastUsed', direction: 'desc' }))).toEqual([
      'alpha',
      'Bravo',
      'charlie',
    ]);
    expect(names(sortClients([n, a, b], { key: 'lastUsed', direction: 'asc' }))).toEqual([
      'Bravo',
      'alpha',
      'charlie',
    ]);
    expect(names(sortClients([n, a, b], { key: 'expires', direction: 'asc' }))).toEqual([
      'Bravo',
      'alpha',
      'charlie',
    ]);
  });

  it('same-named clients keep one order (by client ID), so a page never shows one twice', () => {
    const twin1 = client({ clientId: 'Z'.repeat(26), clientName: 'Twin' });
    const twin2 = client({ clientId: 'Y'.repeat(26), clientName: 'Twin' });
    const ids = (list: ReturnType<typeof sortClients>) => list.map((c) => c.clientId);
    expect(ids(sortClients([twin1, twin2], { key: 'name', direction: 'asc' }))).toEqual(
      ids(sortClients([twin2, twin1], { key: 'name', direction: 'asc' })),
    );
  });

  it('does not change its input', () => {
    const list = [n, b, a];
    sortClients(list, { key: 'name', direction: 'asc' });
    expect(names(list)).toEqual(['charlie', 'Bravo', 'alpha']);
  });
});

describe('a click on a column header', () => {
  it('on another column starts it in its natural direction: names A–Z, dates newest first', () => {
    expect(toggleSort(DEFAULT_SORT, 'name')).toEqual({ key: 'name', direction: 'asc' });
    expect(toggleSort({ key: 'name', direction: 'asc' }, 'lastUsed')).toEqual({
      key: 'lastUsed',
      direction: 'desc',
    });
  });

  it('on the sorted column turns its direction', () => {
    expect(toggleSort({ key: 'name', direction: 'asc' }, 'name')).toEqual({ key: 'name', direction: 'desc' });
    expect(toggleSort({ key: 'name', direction: 'desc' }, 'name')).toEqual({ key: 'name', direction: 'asc' });
  });
});
