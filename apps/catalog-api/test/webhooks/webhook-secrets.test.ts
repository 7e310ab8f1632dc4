// Signing secrets: made in the Standard Webhooks form, signed through the standardwebhooks package,
// sealed at rest so that a database dump, an altered value or a value moved to another row opens nothing.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signWebhook } from '../../src/webhooks/delivery/sign-webhook.ts';
import {
  openingSecrets,
  sealWebhookSecret,
  unsealWebhookSecret,
  webhookSecretSealingKey,
} from '../../src/webhooks/delivery/webhook-secret-sealing.ts';

const key = webhookSecretSealingKey(new Uint8Array(32).fill(7));

describe('webhook signing', () => {
  it('makes a secret of whsec_ and 32 random bytes in base64, a new one each time', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('signs with every secret, space-separated, as Webhook.sign does, with the timestamp in unix seconds', () => {
    const [first, second] = [generateWebhookSecret(), generateWebhookSecret()];
    const timestamp = new Date('2026-11-28T12:00:00.750Z');
    const headers = signWebhook({ messageId: 'msg_1', timestamp, body: '{"a":1}', secrets: [first, second] });
    expect(headers).toEqual({
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Date.parse('2026-11-28T12:00:00Z') / 1000),
      'webhook-signature': [first, second]
        .map((secret) => new Webhook(secret).sign('msg_1', timestamp, '{"a":1}'))
        .join(' '),
      'content-type': 'application/json',
      'user-agent': 'catalog-webhooks/1',
    });
    expect(headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
  });
});

describe('webhook secret sealing', () => {
  it('round-trips a secret sealed for a subscription, never showing it in the sealed text', () => {
    const secret = generateWebhookSecret();
    const sealed = sealWebhookSecret(secret, key, 'S1');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(unsealWebhookSecret(sealed, key, 'S1')).toBe(secret);
    expect(sealWebhookSecret(secret, key, 'S1')).not.toBe(sealed);
  });

  it('refuses a sealed secret copied to another subscription', () => {
    const sealed = sealWebhookSecret(generateWebhookSecret(), key, 'S1');
    expect(() => unsealWebhookSecret(sealed, key, 'S2')).toThrow();
  });

  it('refuses a sealed secret under a key derived from another pepper', () => {
    const sealed = sealWebhookSecret(generateWebhookSecret(), key, 'S1');
    const otherKey = webhookSecretSealingKey(new Uint8Array(32).fill(8));
    expect(() => unsealWebhookSecret(sealed, otherKey, 'S1')).toThrow();
  });

  it('refuses a tampered sealed secret: ciphertext, tag, IV, a shortened tag or another format', () => {
    const sealed = sealWebhookSecret(generateWebhookSecret(), key, 'S1');
    const [format, iv, tag, data] = sealed.split('.') as [string, string, string, string];
    const flip = (part: string) => {
      const bytes = Buffer.from(part, 'base64url');
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      return bytes.toString('base64url');
    };
    const shortTag = Buffer.from(tag, 'base64url').subarray(0, 4).toString('base64url');
    for (const tampered of [
      [format, iv, tag, flip(data)],
      [format, iv, flip(tag), data],
      [format, flip(iv), tag, data],
      [format, iv, shortTag, data],
      ['v2', iv, tag, data],
      [format, iv, tag],
    ])
      expect(() => unsealWebhookSecret(tampered.join('.'), key, 'S1')).toThrow();
  });
});

describe("the delivery worker's opened secrets", () => {
  it('opens a rotated secret anew, and never opens a sealed secret for another subscription or another key because it opened before', () => {
    const open = openingSecrets(key);
    const [first, rotated] = [generateWebhookSecret(), generateWebhookSecret()];
    const sealed = sealWebhookSecret(first, key, 'S1');
    expect(open(sealed, 'S1')).toBe(first);
    expect(open(sealed, 'S1')).toBe(first);
    expect(open(sealWebhookSecret(rotated, key, 'S1'), 'S1')).toBe(rotated);
    expect(() => open(sealed, 'S2')).toThrow();
    expect(() => openingSecrets(webhookSecretSealingKey(new Uint8Array(32).fill(8)))(sealed, 'S1')).toThrow();
  });

  it('keeps no failure: a value that did not open fails again every time', () => {
    const open = openingSecrets(key);
    const sealed = sealWebhookSecret(generateWebhookSecret(), key, 'S1');
    const [format, iv, tag, data] = sealed.split('.') as [string, string, string, string];
    const bytes = Buffer.from(data, 'base64url');
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    const tampered = [format, iv, tag, bytes.toString('base64url')].join('.');
    expect(() => open(tampered, 'S1')).toThrow();
    expect(() => open(tampered, 'S1')).toThrow();
  });
});
