import { readFile } from 'node:fs/promises';
import { request } from 'node:https';
import { WEBHOOK_EVENT_TYPES, type WebhookDeliveryStatus, type WebhookEventType } from '@catalog/store';
import { InvalidArgumentError } from 'commander';
import type { Output } from '../../output.ts';
import { UsageError } from '../../usage-error.ts';
import type { ApiTarget } from '../config/admin-env.ts';

// `pnpm admin webhooks …`: the catalog API's admin webhook routes (issue 31), called over HTTPS with
// an administrator's ID token. Unlike the other admin commands it goes through the API, not the
// database: the API checks the endpoint policy and the client's scopes, and seals the secrets.

// Parsers of the options: a bad value is commander's usage error (exit 2), named by its option.

export function parseEventType(value: string): WebhookEventType {
  if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`must be one of: ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  }
  return value as WebhookEventType;
}

const DELIVERY_STATUSES: readonly WebhookDeliveryStatus[] = [
  'pending',
  'delivering',
  'succeeded',
  'failed',
  'cancelled',
];

export function parseDeliveryStatus(value: string): WebhookDeliveryStatus {
  if (!(DELIVERY_STATUSES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`must be one of: ${DELIVERY_STATUSES.join(', ')}`);
  }
  return value as WebhookDeliveryStatus;
}

function wholeNumber(min: number, max: number) {
  return (value: string): number => {
    const number = Number(value);
    if (!/^[0-9]+$/.test(value) || number < min || number > max) {
      throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`);
    }
    return number;
  };
}

export function parseDeliveryCursor(value: string): string {
  if (!/^[0-9]{1,19}$/.test(value)) {
    throw new InvalidArgumentError('must be the cursor printed after "--before" at the end of a page');
  }
  return value;
}

export const parseOverlapHours = wholeNumber(0, 168);
export const parseDeliveryLimit = wholeNumber(1, 200);

/** A date-time with its zone, normalised to UTC: without a zone it would mean this machine's time. */
export function parseInstant(value: string): string {
  const epoch = Date.parse(value);
  if (
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/.test(value) ||
    Number.isNaN(epoch)
  ) {
    throw new InvalidArgumentError('must be an ISO 8601 date-time with zone (2025-01-31T12:00:00Z)');
  }
  return new Date(epoch).toISOString();
}

// The API's answers, as much of them as these commands print.

interface Subscription {
  id: string;
  clientId: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  state: string;
  disabledReason: string | null;
  lastError: string | null;
  previousSecretExpiresAt: string | null;
}

interface Delivery {
  id: string;
  eventType: string;
  entityId: string;
  occurredAt: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
}

/** A refusal of the API: its own message, which the CLI prints as is (exit 1). */
export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

async function callApi<T>(
  target: ApiTarget,
  method: string,
  path: string,
  body?: unknown,
): Promise<T | undefined> {
  const ca = target.caFile === undefined ? undefined : await readFile(target.caFile, 'utf8');
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const reply = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      `${target.apiUrl}${path}`,
      {
        method,
        ...(ca === undefined ? {} : { ca }),
        headers: {
          Authorization: `Bearer ${target.token}`,
          Accept: 'application/json',
          ...(payload === undefined
            ? {}
            : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', (error) =>
      reject(new Error(`cannot reach the catalog API at ${target.apiUrl}: ${error.message}`)),
    );
    req.end(payload);
  });
  let parsed: unknown;
  try {
    parsed = reply.text === '' ? undefined : JSON.parse(reply.text);
  } catch {
    parsed = undefined;
  }
  if (reply.status < 200 || reply.status > 299) {
    const message = (parsed as { message?: unknown } | undefined)?.message;
    throw new ApiError(
      reply.status,
      `the catalog API answered ${reply.status}: ${typeof message === 'string' ? message : reply.text.slice(0, 200)}`,
    );
  }
  return parsed as T | undefined;
}

const BASE = '/admin/webhook-subscriptions';
const one = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

const SECRET_WARNING =
  'Store this signing secret now: it is shown only once and cannot be retrieved later (rotate-secret makes a new one).';

function stateOf(subscription: Subscription): string {
  if (subscription.state === 'disabled' && subscription.disabledReason !== null)
    return `disabled (${subscription.disabledReason})`;
  return subscription.state;
}

/** Columns padded to their widest cell; the last one is left as it is. */
function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

export async function runWebhooksList(
  target: ApiTarget,
  options: { client?: string; json: boolean },
  output: Output,
) {
  const query = options.client === undefined ? '' : `?clientId=${encodeURIComponent(options.client)}`;
  const reply = await callApi<{ subscriptions: Subscription[] }>(target, 'GET', `${BASE}${query}`);
  const subscriptions = reply?.subscriptions ?? [];
  if (options.json) {
    for (const subscription of subscriptions) output.out(JSON.stringify(subscription));
    return;
  }
  if (subscriptions.length === 0) {
    output.err('no webhook subscriptions');
    return;
  }
  const rows = subscriptions.map((s) => [s.id, s.clientId, stateOf(s), s.eventTypes.join(','), s.url]);
  for (const line of table([['ID', 'CLIENT', 'STATE', 'EVENTS', 'URL'], ...rows])) output.out(line);
}

export async function runWebhooksCreate(
  target: ApiTarget,
  options: { client: string; url: string; event: WebhookEventType[]; description?: string },
  output: Output,
) {
  if (options.event.length === 0) throw new UsageError('give at least one --event');
  const created = await callApi<Subscription & { secret: string }>(target, 'POST', BASE, {
    clientId: options.client,
    url: options.url,
    eventTypes: options.event,
    ...(options.description === undefined ? {} : { description: options.description }),
  });
  if (created === undefined) throw new Error('the catalog API answered without the subscription');
  output.out(`id: ${created.id}`);
  output.out(`secret: ${created.secret}`);
  output.err(SECRET_WARNING);
}

async function setEnabled(target: ApiTarget, id: string, enabled: boolean, output: Output) {
  const updated = await callApi<Subscription>(target, 'PATCH', one(id), { enabled });
  output.out(`${id}: ${updated === undefined ? (enabled ? 'enabled' : 'disabled') : stateOf(updated)}`);
}

export const runWebhooksDisable = (target: ApiTarget, id: string, output: Output) =>
  setEnabled(target, id, false, output);
export const runWebhooksEnable = (target: ApiTarget, id: string, output: Output) =>
  setEnabled(target, id, true, output);

export async function runWebhooksRotateSecret(
  target: ApiTarget,
  id: string,
  options: { overlapHours?: number },
  output: Output,
) {
  const rotation = await callApi<{ secret: string; previousSecretExpiresAt: string | null }>(
    target,
    'POST',
    `${one(id)}/rotate-secret`,
    options.overlapHours === undefined ? {} : { overlapHours: options.overlapHours },
  );
  if (rotation === undefined) throw new Error('the catalog API answered without the secret');
  output.out(`secret: ${rotation.secret}`);
  output.err(SECRET_WARNING);
  output.err(
    rotation.previousSecretExpiresAt === null
      ? 'the previous secret no longer signs'
      : `the previous secret also signs until ${rotation.previousSecretExpiresAt}: install the new one before then`,
  );
}

export async function runWebhooksDeliveries(
  target: ApiTarget,
  id: string,
  options: { status?: WebhookDeliveryStatus; limit?: number; before?: string; json: boolean },
  output: Output,
) {
  const query = new URLSearchParams();
  if (options.status !== undefined) query.set('status', options.status);
  if (options.limit !== undefined) query.set('limit', String(options.limit));
  if (options.before !== undefined) query.set('before', options.before);
  const search = query.size === 0 ? '' : `?${query}`;
  const page = await callApi<{ deliveries: Delivery[]; nextBefore: string | null }>(
    target,
    'GET',
    `${one(id)}/deliveries${search}`,
  );
  const deliveries = page?.deliveries ?? [];
  if (options.json) {
    for (const delivery of deliveries) output.out(JSON.stringify(delivery));
  } else if (deliveries.length === 0) {
    output.err('no deliveries match');
  } else {
    const rows = deliveries.map((d) => [
      d.id,
      d.occurredAt,
      d.eventType,
      d.status,
      String(d.attempts),
      d.lastStatusCode === null ? '-' : String(d.lastStatusCode),
      `${d.entityId}${d.lastError === null ? '' : `  ${d.lastError}`}`,
    ]);
    const header = ['ID', 'OCCURRED', 'EVENT', 'STATUS', 'ATTEMPTS', 'CODE', 'ENTITY / LAST ERROR'];
    for (const line of table([header, ...rows])) output.out(line);
  }
  if (page?.nextBefore != null) output.err(`older deliveries: run again with --before ${page.nextBefore}`);
}

export async function runWebhooksRedeliver(
  target: ApiTarget,
  id: string,
  options: { delivery?: string; from?: string; to?: string },
  output: Output,
) {
  const byId = options.delivery !== undefined;
  const byRange = options.from !== undefined || options.to !== undefined;
  if (byId === byRange) throw new UsageError('give either --delivery <id> or both --from and --to');
  if (byRange && (options.from === undefined || options.to === undefined))
    throw new UsageError('give both --from and --to');
  if (byRange && (options.from ?? '') >= (options.to ?? ''))
    throw new UsageError('--from must be earlier than --to');
  const body = byId ? { deliveryId: options.delivery } : { from: options.from, to: options.to };
  const reply = await callApi<{ queued: number }>(target, 'POST', `${one(id)}/redeliver`, body);
  output.out(`queued: ${reply?.queued ?? 0}`);
}

export async function runWebhooksDelete(target: ApiTarget, id: string, output: Output) {
  await callApi(target, 'DELETE', one(id));
  output.err(`deleted ${id}: nothing more is delivered to it, and its delivery log is gone`);
}
