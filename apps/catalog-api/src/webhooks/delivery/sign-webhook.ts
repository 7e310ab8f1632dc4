import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The headers of one attempt, signed with each secret (the current one, and the previous one while a
 * rotation overlaps), space-separated as the specification has it.
 */
export function signWebhook(message: {
  messageId: string;
  timestamp: Date;
  body: string;
  secrets: readonly string[];
}): Record<string, string> {
  const signatures = message.secrets.map((secret) =>
    new Webhook(secret).sign(message.messageId, message.timestamp, message.body),
  );
  return {
    'webhook-id': message.messageId,
    'webhook-timestamp': String(Math.floor(message.timestamp.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
    'content-type': 'application/json',
    'user-agent': 'catalog-webhooks/1',
  };
}
