import type { M2MClient } from '../../src/api/types.ts';
import { DAY_MS } from '../../src/domain/clients.ts';

export const NOW = Date.parse('2025-06-01T12:00:00Z');
export const iso = (ms: number) => new Date(ms).toISOString();

/** An active, never-used, never-expiring client created two days before NOW, with `overrides`. */
export function client(overrides: Partial<M2MClient> = {}): M2MClient {
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

export const names = (list: readonly M2MClient[]) => list.map((c) => c.clientName);
