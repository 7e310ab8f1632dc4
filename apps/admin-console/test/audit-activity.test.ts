import { describe, expect, it } from 'vitest';
import { activityText, actorName } from '../src/domain/audit-activity.ts';

describe("a client's activity in words", () => {
  it('who: an administrator by email, the operator CLI, or an unknown account', () => {
    expect(actorName({ kind: 'admin', userId: 'u1', email: 'ops@example.com' })).toBe('ops@example.com');
    expect(actorName({ kind: 'operator', name: 'operator-cli' })).toBe('the operator CLI');
    expect(actorName({ kind: 'unknown' })).toBe('an unknown account');
  });

  it('what: the action, and for a change each field from its old to its new value', () => {
    expect(activityText({ action: 'client.create' })).toBe('Created');
    expect(activityText({ action: 'client.revoke' })).toBe('Revoked');
    expect(
      activityText({
        action: 'client.update',
        changes: {
          scopes: { from: ['products.read'], to: ['products.read', 'brands.read'] },
          channel: { from: null, to: 'eu-shop' },
        },
      }),
    ).toBe('Changed scopes from products.read to products.read, brands.read; channel from none to eu-shop');
  });
});
