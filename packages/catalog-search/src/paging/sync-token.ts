import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { InvalidSyncTokenError } from '@catalog/store';
import type { CursorPosition, PositionKeyPart } from '../engine/search-engine.ts';

export interface SyncCursor extends CursorPosition {
  /** Fingerprint of the query the cursor belongs to. */
  queryHash: string;
  /** Capped total computed on the first page, repeated on every following page. */
  total: number;
  totalIsLowerBound: boolean;
  issuedAt: number;
}

export const SYNC_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * v2: the position is the engine's key list (engine/search-engine.ts), where v1 held SQLite's
 * bucket and sort key. A v1 token is refused like any other unknown version.
 */
const VERSION = 'v2';

/** An engine's position key is a sort key and a little more: a longer list is not one of ours. */
const MAX_KEY_PARTS = 8;

interface Payload {
  h: string;
  k: PositionKeyPart[];
  s: number;
  t: number;
  l: 0 | 1;
  i: number;
}

/**
 * A raw key is imported into a KeyObject on every createHmac call (17 µs of the main thread per
 * page); import each secret once instead (3 µs per signature).
 */
const keys = new WeakMap<Uint8Array, KeyObject>();
function keyOf(secret: Uint8Array): KeyObject {
  let key = keys.get(secret);
  if (key === undefined) {
    key = createSecretKey(secret);
    keys.set(secret, key);
  }
  return key;
}

function sign(secret: Uint8Array, body: string): string {
  return createHmac('sha256', keyOf(secret)).update(`${VERSION}.${body}`).digest('base64url');
}

export function encodeSyncToken(secret: Uint8Array, cursor: SyncCursor): string {
  const payload: Payload = {
    h: cursor.queryHash,
    k: [...cursor.key],
    s: cursor.seq,
    t: cursor.total,
    l: cursor.totalIsLowerBound ? 1 : 0,
    i: cursor.issuedAt,
  };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${VERSION}.${body}.${sign(secret, body)}`;
}

function isPayload(value: unknown): value is Payload {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Record<string, unknown>;
  return (
    typeof p.h === 'string' &&
    Array.isArray(p.k) &&
    p.k.length <= MAX_KEY_PARTS &&
    p.k.every((part) => part === null || typeof part === 'string' || Number.isFinite(part)) &&
    Number.isSafeInteger(p.s) &&
    Number.isSafeInteger(p.t) &&
    (p.l === 0 || p.l === 1) &&
    Number.isSafeInteger(p.i)
  );
}

/**
 * Verifies signature, version, age and query binding. Every failure is INVALID_SYNC_TOKEN: the
 * token can never succeed and the caller must restart from its checkpoint.
 */
export function decodeSyncToken(
  secret: Uint8Array,
  token: string,
  expected: { queryHash: string; now: number },
): SyncCursor {
  const parts = token.split('.');
  if (parts.length !== 3) throw new InvalidSyncTokenError('malformed');
  const [version, body, signature] = parts as [string, string, string];
  if (version !== VERSION) throw new InvalidSyncTokenError('unknown version');
  const expectedSignature = Buffer.from(sign(secret, body));
  const givenSignature = Buffer.from(signature);
  if (
    givenSignature.length !== expectedSignature.length ||
    !timingSafeEqual(givenSignature, expectedSignature)
  ) {
    throw new InvalidSyncTokenError('bad signature');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidSyncTokenError('malformed');
  }
  if (!isPayload(payload)) throw new InvalidSyncTokenError('malformed');
  if (expected.now - payload.i > SYNC_TOKEN_TTL_MS || payload.i > expected.now + 60_000) {
    throw new InvalidSyncTokenError('expired');
  }
  if (payload.h !== expected.queryHash) throw new InvalidSyncTokenError('issued for a different query');
  return {
    queryHash: payload.h,
    key: payload.k,
    seq: payload.s,
    total: payload.t,
    totalIsLowerBound: payload.l === 1,
    issuedAt: payload.i,
  };
}
