import type { Actor } from './m2m-client.ts';

// Change notifications for integrators (issue 31): subscriptions, and the outbox of their deliveries
// fed from the change feed. Events are thin, an id and the updatedAt of the write: the receiver reads
// the record through its own client, so a retry a day late never carries a stale copy and no field
// leaves the API except through the allowlisted read routes.

export const WEBHOOK_EVENT_TYPES = [
  'product.created',
  'product.changed',
  'product.archived',
  'brand.changed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The scope a client needs for an event type: the scope of the read route the receiver calls next. */
export const EVENT_TYPE_SCOPE: Readonly<Record<WebhookEventType, 'products.read' | 'brands.read'>> = {
  'product.created': 'products.read',
  'product.changed': 'products.read',
  'product.archived': 'products.read',
  'brand.changed': 'brands.read',
};

export type WebhookDisabledReason = 'admin' | 'gone';
export type WebhookSubscriptionState = 'active' | 'failing' | 'disabled' | 'client-inactive';
export type WebhookDeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed' | 'cancelled';

export interface StoredWebhookSubscription {
  id: string;
  clientId: string;
  url: string;
  description: string | null;
  eventTypes: WebhookEventType[];
  enabled: boolean;
  disabledReason: WebhookDisabledReason | null;
  failingSince: string | null;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  lastError: string | null;
  /** The signing secret, sealed by the API (never stored in clear). */
  secretSealed: string;
  /** The secret before the last rotation, still signing until `previousSecretExpiresAt`. */
  previousSecretSealed: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
  createdBy: Actor;
  updatedAt: string;
  version: number;
  /** Whether the owning client was active and unexpired when the subscription was read. */
  clientActive: boolean;
}

export function webhookSubscriptionState(
  subscription: Pick<StoredWebhookSubscription, 'clientActive' | 'enabled' | 'failingSince'>,
): WebhookSubscriptionState {
  if (!subscription.clientActive) return 'client-inactive';
  if (!subscription.enabled) return 'disabled';
  return subscription.failingSince === null ? 'active' : 'failing';
}

export interface NewWebhookSubscription {
  id: string;
  clientId: string;
  url: string;
  description: string | null;
  eventTypes: readonly WebhookEventType[];
  enabled: boolean;
  secretSealed: string;
  createdBy: Actor;
}

/** A merge patch: only the fields present change. Enabling clears the failing state and the disabling reason. */
export interface WebhookSubscriptionPatch {
  url?: string;
  description?: string | null;
  eventTypes?: readonly WebhookEventType[];
  enabled?: boolean;
}

export interface WebhookSecretRotation {
  secretSealed: string;
  /** Until when the replaced secret still signs; null drops it at once. */
  previousSecretExpiresAt: string | null;
}

export interface WebhookDelivery {
  /** The event's id, sent as `webhook-id`: the same on every attempt and redelivery. */
  id: string;
  subscriptionId: string;
  /** The change-feed entry it comes from. */
  sequence: number;
  eventType: WebhookEventType;
  entityId: string;
  occurredAt: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  lastLatencyMs: number | null;
  deliveredAt: string | null;
  createdAt: string;
}

/** A delivery claimed for one attempt, with what sending it needs. */
export interface ClaimedDelivery extends WebhookDelivery {
  /** Fences the attempt: its result is recorded only while this claim still holds the delivery. */
  claim: string;
  url: string;
  /** The secrets to sign with: the current one first, then the previous one while it overlaps. */
  secretsSealed: string[];
  /** Attempts failed since it was (re)queued: where the retry schedule stands. */
  failedAttempts: number;
}

export type AttemptOutcome = 'delivered' | 'retry' | 'gone' | 'refused';

export interface AttemptResult {
  deliveryId: string;
  claim: string;
  outcome: AttemptOutcome;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  startedAt: Date;
  /** For `retry`: when to try again, or null to give up (the schedule is spent). */
  nextAttemptAt: Date | null;
}

export interface WebhookAttempt {
  deliveryId: string;
  attempt: number;
  startedAt: string;
  outcome: AttemptOutcome;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

export interface WebhookDeliveryFilter {
  status?: WebhookDeliveryStatus;
  limit: number;
  /** Deliveries strictly older than this cursor (the previous page's `nextBefore`). */
  before?: string;
}

export interface WebhookDeliveryPage {
  deliveries: WebhookDelivery[];
  nextBefore: string | null;
}

export type RedeliverySelection = { deliveryId: string } | { from: string; to: string };

export interface EnqueueResult {
  /** The last change-feed entry now turned into deliveries (or passed over). */
  through: number;
  head: number;
  queued: number;
}

export interface DeliveryRound {
  settled: readonly AttemptResult[];
  enqueueLimit: number;
  /**
   * New changes are queued only while some subscription that listens has fewer deliveries than this
   * waiting and due (null: whenever there are any). The change feed holds them meanwhile.
   */
  enqueueAhead?: number | null;
  claim: ClaimOptions | null;
}

export interface DeliveryRoundResult {
  enqueued: EnqueueResult;
  claimed: ClaimedDelivery[];
}

export interface ClaimOptions {
  /** Deliveries claimed at most, over every subscription. */
  limit: number;
  /** Deliveries of one subscription in flight at most, counting those claimed by other processes. */
  perSubscription: number;
  /** How long a claim holds before another process may take the delivery over (its holder died). */
  leaseMs: number;
}

export interface WebhookQueueDepth {
  /** Deliveries waiting or under way. */
  pending: number;
  /** Entries of the change feed not yet turned into deliveries. */
  feedBacklog: number;
}
