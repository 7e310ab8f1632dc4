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

/**
 * The key that seals webhook signing secrets at rest, derived from the client-secret pepper: every
 * instance opens what another sealed, and a database dump or backup without the pepper holds none.
 */
export const webhookSecretSealingKey = (pepper: Uint8Array): KeyObject =>
  createSecretKey(Buffer.from(hkdfSync('sha256', pepper, new Uint8Array(0), PURPOSE, 32)));

/** AES-256-GCM with the subscription's id as associated data: a sealed secret copied to another row does not open. */
export function sealWebhookSecret(secret: string, key: KeyObject, subscriptionId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(subscriptionId));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [FORMAT, iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** Throws when the text was not sealed with this key for this subscription, or was altered. */
export function unsealWebhookSecret(sealed: string, key: KeyObject, subscriptionId: string): string {
  const [format, iv, tag, data] = sealed.split('.');
  if (format !== FORMAT || iv === undefined || tag === undefined || data === undefined)
    throw new Error('not a sealed webhook secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(subscriptionId));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
