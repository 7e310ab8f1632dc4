import { timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from '@catalog/contracts';
import { Webhook } from 'standardwebhooks';

export type { WebhookEvent, WebhookEventType } from '@catalog/contracts';

/** Why a message was refused; answer it with 400 (or 401), never process it. */
export type WebhookRefusal =
  | 'missing-header'
  | 'timestamp-out-of-tolerance'
  | 'invalid-signature'
  | 'invalid-secret'
  | 'invalid-body';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly reason: WebhookRefusal;
  constructor(reason: WebhookRefusal, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** Headers as a framework hands them over: the WHATWG `Headers`, or node's record of lower- or mixed-case names. */
export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

export interface WebhookRequest {
  readonly headers: WebhookHeaders;
  /** The raw body, byte for byte as received: parsed and re-serialised JSON does not verify. */
  readonly body: string | Uint8Array;
}

export interface VerifyWebhookOptions {
  /** How far the message's timestamp may be from now, either way, in seconds (default 300). */
  readonly toleranceSeconds?: number;
  readonly now?: () => Date;
}

const DEFAULT_TOLERANCE_SECONDS = 300;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(
    headers as Record<string, string | readonly string[] | undefined>,
  ))
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : (value as string | undefined);
  return undefined;
}

function isEvent(value: unknown): value is WebhookEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  const data = event.data as Record<string, unknown> | null | undefined;
  return (
    typeof event.type === 'string' &&
    typeof event.timestamp === 'string' &&
    typeof data === 'object' &&
    data !== null &&
    typeof data.id === 'string'
  );
}

/**
 * Checks a webhook of the catalog service (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) and returns its event. `secret` is the subscription's `whsec_…` secret, or
 * several while a rotation overlaps: the message verifies when one of its signatures matches one of
 * them. Throws WebhookVerificationError otherwise. Deduplicate by `webhook-id`: delivery is at least
 * once.
 */
export function verifyWebhook(
  request: WebhookRequest,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  const id = header(request.headers, 'webhook-id');
  const timestamp = header(request.headers, 'webhook-timestamp');
  const signatures = header(request.headers, 'webhook-signature');
  if (id === undefined || timestamp === undefined || signatures === undefined)
    throw new WebhookVerificationError(
      'missing-header',
      'a webhook needs the webhook-id, webhook-timestamp and webhook-signature headers',
    );
  const seconds = Number(timestamp);
  const now = (options.now?.() ?? new Date()).getTime() / 1000;
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!/^\d+$/.test(timestamp) || Math.abs(now - seconds) > tolerance)
    throw new WebhookVerificationError(
      'timestamp-out-of-tolerance',
      `the webhook's timestamp is more than ${tolerance} s from now (a replay, or a clock far off)`,
    );
  const body = typeof request.body === 'string' ? request.body : Buffer.from(request.body).toString('utf8');
  const received = signatures
    .split(' ')
    .filter((signature) => signature.startsWith('v1,'))
    .map((signature) => Buffer.from(signature));
  let matched = false;
  for (const key of typeof secret === 'string' ? [secret] : secret) {
    let expected: Buffer;
    try {
      // The library frames and signs (`id.timestamp.body`); the comparison is constant-time here, so
      // that the tolerance above is the only time window.
      expected = Buffer.from(new Webhook(key).sign(id, new Date(seconds * 1000), body));
    } catch {
      throw new WebhookVerificationError(
        'invalid-secret',
        'the secret is not a Standard Webhooks secret (whsec_…)',
      );
    }
    for (const signature of received)
      if (signature.length === expected.length && timingSafeEqual(signature, expected)) matched = true;
  }
  if (!matched)
    throw new WebhookVerificationError('invalid-signature', 'no signature of the webhook matches the secret');
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    throw new WebhookVerificationError('invalid-body', 'the webhook body is not JSON');
  }
  if (!isEvent(event))
    throw new WebhookVerificationError('invalid-body', 'the webhook body is not a catalog event');
  return event;
}
