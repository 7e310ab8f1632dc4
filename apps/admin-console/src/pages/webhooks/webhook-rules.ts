// Rules of a webhook subscription as the console shows it: which event types a client's scopes allow,
// its state in words and what to do about it, and the delivery log's time range in the browser's zone.
import type { GrantableScope } from '../../api/types.ts';
import type {
  WebhookDeliveryStatus,
  WebhookEventType,
  WebhookSubscription,
  WebhookSubscriptionState,
} from '../../api/webhook-types.ts';

type Exhaustive<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : false;

export const EVENT_TYPES = [
  'product.created',
  'product.changed',
  'product.archived',
  'brand.changed',
] as const satisfies readonly WebhookEventType[];

export const DELIVERY_STATUSES = [
  'pending',
  'delivering',
  'succeeded',
  'failed',
  'cancelled',
] as const satisfies readonly WebhookDeliveryStatus[];

const everyEventTypeListed: Exhaustive<WebhookEventType, (typeof EVENT_TYPES)[number]> = true;
const everyStatusListed: Exhaustive<WebhookDeliveryStatus, (typeof DELIVERY_STATUSES)[number]> = true;
export const WEBHOOK_LISTS_COMPLETE = everyEventTypeListed && everyStatusListed;

/** The scope a client needs for an event type (the API refuses a subscription without it). */
export const EVENT_TYPE_SCOPE: Readonly<Record<WebhookEventType, GrantableScope>> = {
  'product.created': 'products.read',
  'product.changed': 'products.read',
  'product.archived': 'products.read',
  'brand.changed': 'brands.read',
};

export const EVENT_TYPE_TEXT: Readonly<Record<WebhookEventType, string>> = {
  'product.created': 'a product was added',
  'product.changed': 'a product’s representation changed',
  'product.archived': 'a product was archived',
  'brand.changed': 'a brand was created, changed or archived',
};

/** Why the client may not receive this event type, or null when its scopes allow it. */
export function eventTypeRefusal(eventType: WebhookEventType, scopes: readonly string[]): string | null {
  const scope = EVENT_TYPE_SCOPE[eventType];
  return scopes.includes(scope) ? null : `Needs the client’s ${scope} scope, which it does not have.`;
}

/** The fields as the forms label them, to lead the messages of the browser's own check. */
export const WEBHOOK_FIELD_LABELS: Readonly<Record<string, string>> = {
  overlapHours: 'Old secret still signs for (hours)',
};

export const STATE_LABEL: Readonly<Record<WebhookSubscriptionState, string>> = {
  active: 'active',
  failing: 'failing',
  disabled: 'disabled',
  'client-inactive': 'client inactive',
};

/** What the state means, in one sentence, with its reason. */
export function stateReason(subscription: WebhookSubscription): string {
  switch (subscription.state) {
    case 'active':
      return 'Deliveries flow.';
    case 'failing':
      return 'An event could not be delivered after retrying for more than 24 hours; deliveries go on.';
    case 'disabled':
      return subscription.disabledReason === 'gone'
        ? 'Disabled because the endpoint answered 410 Gone: nothing is sent.'
        : 'Disabled by an administrator: nothing is sent; events wait until it is enabled.';
    case 'client-inactive':
      return 'The client is revoked or expired: nothing is delivered.';
  }
}

/** What the administrator should do about a subscription that does not deliver, or null when it does. */
export function stateAdvice(subscription: WebhookSubscription): string | null {
  switch (subscription.state) {
    case 'failing':
      return 'Fix the endpoint (look at the last error below and in the delivery log), then redeliver the time range it missed.';
    case 'disabled':
      return subscription.disabledReason === 'gone'
        ? 'The receiver said it no longer wants these events. If that was a mistake, fix the endpoint, then Enable and redeliver the time range it missed.'
        : 'Enable it to send the events that waited meanwhile.';
    case 'client-inactive':
      return 'Move the integration to an active client and subscribe that client; this subscription cannot deliver again.';
    default:
      return null;
  }
}

/** The last error as the administrator reads it: what was met, or that none was. */
export function lastErrorText(subscription: Pick<WebhookSubscription, 'lastError'>): string {
  return subscription.lastError === null || subscription.lastError === ''
    ? 'No failed attempt recorded.'
    : `The last failed attempt met: ${subscription.lastError}`;
}

/** The browser's time zone by name, e.g. "Europe/Paris". */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * A datetime-local input's value (`2026-11-28T14:05`, a wall time without zone) as an ISO instant,
 * read in the browser's zone; null when it is empty or no date.
 */
export function localInputToIso(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** An instant as a datetime-local input's value in the browser's zone (minutes). */
export function isoToLocalInput(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The route of a subscription's own page: `webhooks/<id>`. */
export const webhookRoute = (id: string) => `webhooks/${id}`;
