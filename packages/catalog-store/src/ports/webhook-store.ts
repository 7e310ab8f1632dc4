import type { AuditContext } from '../model/audit-event.ts';
import type {
  AttemptResult,
  ClaimedDelivery,
  ClaimOptions,
  DeliveryRound,
  DeliveryRoundResult,
  EnqueueResult,
  NewWebhookSubscription,
  RedeliverySelection,
  StoredWebhookSubscription,
  WebhookAttempt,
  WebhookDeliveryFilter,
  WebhookDeliveryPage,
  WebhookQueueDepth,
  WebhookSecretRotation,
  WebhookSubscriptionPatch,
} from '../model/webhook.ts';
import type { ExpectedVersion } from '../records/expected-version.ts';

/**
 * Webhook subscriptions and the durable outbox of their deliveries. The outbox is fed from the change
 * feed (`enqueueChanges`), so a write costs nothing more than its feed entry, and a process killed at
 * any point loses nothing: the cursor moves in the transaction that queues the deliveries, and a
 * claim whose holder died is taken over when its lease ends.
 */
export interface WebhookStore {
  /** With `audit`, appends 'webhook-subscription.create' in the same transaction (so for every write below). */
  createSubscription(input: NewWebhookSubscription, audit?: AuditContext): Promise<StoredWebhookSubscription>;
  getSubscription(id: string): Promise<StoredWebhookSubscription | undefined>;
  /** Oldest first. */
  listSubscriptions(filter?: { clientId?: string }): Promise<StoredWebhookSubscription[]>;
  /** NotFoundError, or PreconditionFailedError with `expected` (nothing written). */
  updateSubscription(
    id: string,
    patch: WebhookSubscriptionPatch,
    audit?: AuditContext,
    expected?: ExpectedVersion,
  ): Promise<StoredWebhookSubscription>;
  /** Removes the subscription and its deliveries. */
  deleteSubscription(id: string, audit?: AuditContext, expected?: ExpectedVersion): Promise<void>;
  /** The current secret becomes the previous one, signing until the rotation's expiry. */
  rotateSecret(
    id: string,
    rotation: WebhookSecretRotation,
    audit?: AuditContext,
  ): Promise<StoredWebhookSubscription>;

  /** Newest first. */
  listDeliveries(subscriptionId: string, filter: WebhookDeliveryFilter): Promise<WebhookDeliveryPage>;
  /** Every attempt of one delivery, oldest first. */
  listAttempts(deliveryId: string): Promise<WebhookAttempt[]>;
  /** Queues finished deliveries again (their ids unchanged); returns how many. */
  redeliver(subscriptionId: string, selection: RedeliverySelection, audit?: AuditContext): Promise<number>;
  /**
   * Deletes finished deliveries (succeeded, failed, cancelled) queued before `before`, oldest first,
   * at most `limit`, with their attempts, in one transaction; returns how many. Never one waiting or
   * under way. What is deleted leaves the delivery log and can no longer be redelivered.
   */
  pruneDeliveries(before: Date, limit: number): Promise<number>;

  /**
   * Turns the change-feed entries after the outbox's cursor (at most `limit`) into deliveries for the
   * subscriptions that are enabled, whose client is active, unexpired and allowed the event type, and
   * moves the cursor, in one transaction; several processes may call it at once.
   */
  enqueueChanges(limit: number): Promise<EnqueueResult>;
  /**
   * Claims due deliveries, oldest first, never one whose product or brand has an earlier delivery of
   * the same subscription still waiting (order per record), and cancels those of subscriptions whose
   * client is no longer active.
   */
  claimDue(options: ClaimOptions): Promise<ClaimedDelivery[]>;
  /**
   * Records attempts, in one transaction, and what follows from each: the delivery done, retried or given up; the
   * subscription's last success or failure, marked failing when a delivery is given up, disabled on
   * `gone` (each audited), and the retries of a subscription that answers again brought forward.
   * A result is ignored when its claim no longer holds the delivery.
   */
  recordAttempts(results: readonly AttemptResult[]): Promise<void>;
  /**
   * One round of a delivery worker, in one transaction: `recordAttempts(settled)`, then
   * `claimDue(claim)` (skipped when `claim` is null), then `enqueueChanges(enqueueLimit)` (skipped
   * while every listening subscription has `enqueueAhead` deliveries due), whose new deliveries the
   * claim's room left takes as they are queued, exactly as a `claimDue` after them would. Under
   * load thousands of attempts settle a second: a transaction per round, whatever it carries,
   * rather than one per step and attempt. Takes no write lock when there is nothing to do.
   */
  deliveryRound(round: DeliveryRound): Promise<DeliveryRoundResult>;
  queueDepth(): Promise<WebhookQueueDepth>;
}
