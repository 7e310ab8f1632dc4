import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto';

const PURPOSE = 'catalog catalog-api: webhook secret sealing key v1';
const FORMAT = 'v1';
const IV_BYTES = 12;
// Fixed, so that a tag shortened in the database (GCM would accept 4 bytes) is refused.
const TAG_BYTES = 16;

/**
 * The key that seals webhook signing secrets at rest, derived from the client-secret pepper: every
 * instance opens what another sealed, and a database dump or backup without the pepper holds none.
 */
export const webhookSecretSealingKey = (pepper: Uint8Array): KeyObject =>
  createSecretKey(Buffer.from(hkdfSync('sha256', pepper, new Uint8Array(0), PURPOSE, 32)));

/** AES-256-GCM with the subscription's id as associated data: a sealed secret copied to another row does not open. */
export function sealWebhookSecret(secret: string, key: KeyObject, subscriptionId: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(subscriptionId));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [FORMAT, iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** Throws when the text was not sealed with this key for this subscription, or was altered. */
export function unsealWebhookSecret(sealed: string, key: KeyObject, subscriptionId: string): string {
  const parts = sealed.split('.');
  const [format, iv, tag, data] = [parts[0], ...parts.slice(1).map((part) => Buffer.from(part, 'base64url'))];
  if (
    parts.length !== 4 ||
    format !== FORMAT ||
    iv?.length !== IV_BYTES ||
    tag?.length !== TAG_BYTES ||
    data === undefined
  )
    throw new Error('not a sealed webhook secret');
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(subscriptionId));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}

/** Subscriptions' opened secrets kept at most: more than any deployment has subscriptions sending. */
const OPENED_SECRETS_KEPT = 1024;

/**
 * `unsealWebhookSecret` for the delivery worker, which opens the same few secrets thousands of times
 * a second (an AES-GCM context each, a hundredth of its time). A rotated secret is sealed anew, so
 * its text misses the cache; what failed to open is not kept and fails again.
 */
export function openingSecrets(key: KeyObject): (sealed: string, subscriptionId: string) => string {
  const opened = new Map<string, string>();
  return (sealed, subscriptionId) => {
    const cacheKey = `${subscriptionId} ${sealed}`;
    let secret = opened.get(cacheKey);
    if (secret === undefined) {
      secret = unsealWebhookSecret(sealed, key, subscriptionId);
      if (opened.size >= OPENED_SECRETS_KEPT) opened.clear();
      opened.set(cacheKey, secret);
    }
    return secret;
  };
}
