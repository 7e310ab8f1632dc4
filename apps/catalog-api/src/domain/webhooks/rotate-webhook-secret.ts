import type { KeyObject } from 'node:crypto';
import type { AuditContext, CatalogStore } from '@catalog/store';
import { generateWebhookSecret } from '../../webhooks/delivery/sign-webhook.ts';
import { sealWebhookSecret } from '../../webhooks/delivery/webhook-secret-sealing.ts';

const HOUR_MS = 3_600_000;
export const DEFAULT_OVERLAP_HOURS = 24;

/**
 * POST /admin/webhook-subscriptions/{id}/rotate-secret: a new secret, returned this once; the one it
 * replaces still signs for `overlapHours` (0: dropped at once), so the receiver can switch unhurried.
 */
export async function rotateWebhookSecret(input: {
  readonly store: CatalogStore;
  readonly sealingKey: KeyObject;
  readonly subscriptionId: string;
  readonly overlapHours?: number | undefined;
  readonly audit: AuditContext;
  readonly now: Date;
}): Promise<{ secret: string; previousSecretExpiresAt: string | null }> {
  const overlapHours = input.overlapHours ?? DEFAULT_OVERLAP_HOURS;
  const previousSecretExpiresAt =
    overlapHours === 0 ? null : new Date(input.now.getTime() + overlapHours * HOUR_MS).toISOString();
  const secret = generateWebhookSecret();
  await input.store.webhooks.rotateSecret(
    input.subscriptionId,
    {
      secretSealed: sealWebhookSecret(secret, input.sealingKey, input.subscriptionId),
      previousSecretExpiresAt,
    },
    input.audit,
  );
  return { secret, previousSecretExpiresAt };
}
