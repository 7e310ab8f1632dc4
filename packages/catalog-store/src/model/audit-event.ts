// The audit trail of administrative actions (issue 18). Append-only: no port method edits or deletes
// an event. An event never holds a secret, a password, a password hash or a token: callers pass
// only the fields below, and `changes`/`details` are built from allowlisted record fields.

/** Who acted. An administrator is named by the ID token's `sub` and the account's email. */
export type AuditActor =
  | { readonly kind: 'admin'; readonly userId: string; readonly email: string }
  | { readonly kind: 'operator'; readonly name: 'operator-cli' }
  /** The service itself: the webhook worker marking a subscription failing, disabled or recovered. */
  | { readonly kind: 'service'; readonly name: 'webhook-delivery' }
  /** A failed sign-in for an email that names no account: the typed text is not kept (it may be a password). */
  | { readonly kind: 'unknown' };

export const AUDIT_ACTIONS = [
  'client.create',
  'client.update',
  'client.revoke',
  'client.rotate-secret',
  'product.create',
  'product.replace',
  'product.archive',
  'brand.create',
  'brand.update',
  'brand.archive',
  'web-channel.create',
  'web-channel.rename',
  'admin.sign-in',
  'admin.sign-in-failure',
  'admin.lock-out',
  'admin-user.create',
  'admin-user.disable',
  'signing-key.stage',
  'signing-key.promote',
  'catalogue.import-batch',
  'catalogue.seed',
  'catalogue.migrate',
  'webhook-subscription.create',
  'webhook-subscription.update',
  'webhook-subscription.delete',
  'webhook-subscription.rotate-secret',
  'webhook-subscription.redeliver',
  'webhook-subscription.failing',
  'webhook-subscription.disable',
  'webhook-subscription.recover',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = [
  'client',
  'product',
  'brand',
  'web-channel',
  'admin-user',
  'signing-key',
  'catalogue',
  'webhook-subscription',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export interface AuditTarget {
  readonly type: AuditTargetType;
  /** The record's id (client id, product id, brand id, channel slug, admin user id, key id); null for the whole catalogue. */
  readonly id: string | null;
}

/** One changed field: its value before and after (scopes, channel, expiry), or only that it changed. */
export interface AuditChange {
  readonly from?: unknown;
  readonly to?: unknown;
}

/** Who acted, from where, in which request: what the caller knows and the store does not. */
export interface AuditContext {
  readonly actor: AuditActor;
  /** Client address as the server saw it (after TRUST_PROXY); null for the operator CLI. */
  readonly sourceIp: string | null;
  /** The request's X-Request-Id; null for the operator CLI. */
  readonly requestId: string | null;
}

export interface NewAuditEvent extends AuditContext {
  readonly action: AuditAction;
  readonly target: AuditTarget;
  /** Changed fields by name (updates only). */
  readonly changes?: Readonly<Record<string, AuditChange>>;
  /** Small facts about the action: counts, a failure reason, a file name. Never a secret. */
  readonly details?: Readonly<Record<string, string | number | boolean | null>>;
}

export interface AuditEvent extends NewAuditEvent {
  /** Position in the trail: increases with every append, never reused. */
  readonly id: string;
  /** ISO 8601, set by the store when the event is appended. */
  readonly occurredAt: string;
}

export interface AuditFilter {
  /** An admin's user id or email, or `operator-cli`. */
  readonly actor?: string;
  readonly action?: AuditAction;
  readonly targetType?: AuditTargetType;
  readonly targetId?: string;
  /** Inclusive lower bound on occurredAt (ISO 8601). */
  readonly since?: string;
  /** Exclusive upper bound on occurredAt (ISO 8601). */
  readonly until?: string;
  /** Page size. */
  readonly limit: number;
  /** Events strictly older than this event id (the previous page's `nextBefore`). */
  readonly before?: string;
}

export interface AuditPage {
  /** Newest first. */
  readonly events: AuditEvent[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  readonly nextBefore: string | null;
}
