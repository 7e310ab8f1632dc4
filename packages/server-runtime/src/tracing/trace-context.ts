// W3C Trace Context level 1 (https://www.w3.org/TR/trace-context-1/): the `traceparent` and
// `tracestate` request headers. Written here rather than taken from @opentelemetry/core: its
// propagator works through @opentelemetry/api's context machinery, which nothing else here uses,
// and the grammar is small and fixed (every rule is checked in test/trace-context.test.ts).
import { randomBytes } from 'node:crypto';

/** The fields of a `traceparent` header that level 1 defines. */
export interface TraceParent {
  /** 32 lowercase hex digits, not all zero. */
  readonly traceId: string;
  /** The caller's id for this request: 16 lowercase hex digits, not all zero. */
  readonly parentId: string;
  /** Bit 0 of trace-flags, the only flag level 1 defines (the others are sent as zero). */
  readonly sampled: boolean;
}

/** The trace a request belongs to, as a server sees it. */
export interface TraceContext {
  readonly traceId: string;
  /** This server's id for the request: the parent-id of every call it makes on the request's behalf. */
  readonly spanId: string;
  /** The caller's parent-id; undefined when the trace started here. */
  readonly parentSpanId: string | undefined;
  readonly sampled: boolean;
  /** The caller's `tracestate`, passed on unchanged; undefined when absent or invalid. */
  readonly traceState: string | undefined;
}

// version "-" trace-id "-" parent-id "-" trace-flags, then, from a later version only, "-" and more.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/s;
const ALL_ZERO = /^0+$/;

/**
 * The fields of a `traceparent` value, or undefined when it is invalid: version ff, version 00
 * with anything after the flags, an id of zeros, a field of the wrong length, uppercase hex.
 * A later version is read by the level-1 rules for its first four fields.
 */
export function parseTraceparent(value: string | undefined): TraceParent | undefined {
  const match = value === undefined ? null : TRACEPARENT.exec(value);
  if (match === null) return undefined;
  const [, version, traceId = '', parentId = '', flags = '', rest] = match;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (ALL_ZERO.test(traceId) || ALL_ZERO.test(parentId)) return undefined;
  return { traceId, parentId, sampled: (Number.parseInt(flags, 16) & 1) === 1 };
}

/** A version-00 `traceparent` value. */
export function formatTraceparent(parent: TraceParent): string {
  return `00-${parent.traceId}-${parent.parentId}-${parent.sampled ? '01' : '00'}`;
}

// key = simple-key / multi-tenant-key (tenant-id "@" system-id); value = printable ASCII but
// "," and "=", at most 256, not ending in a space.
const TRACESTATE_KEY =
  /^(?:[a-z][a-z0-9_\-*/]{0,255}|[a-z0-9][a-z0-9_\-*/]{0,240}@[a-z][a-z0-9_\-*/]{0,13})$/;
const TRACESTATE_VALUE = /^[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;
const TRACESTATE_MAX_MEMBERS = 32;

/**
 * The `tracestate` value itself when it is a valid list (at most 32 members, each key once, empty
 * members allowed), else undefined: an invalid one is dropped whole, never repaired. An empty
 * list is undefined too, as the spec asks not to send one.
 */
export function validTracestate(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const keys = new Set<string>();
  for (const raw of value.split(',')) {
    const member = raw.replace(/^[ \t]+|[ \t]+$/g, '');
    if (member === '') continue;
    const equals = member.indexOf('=');
    const key = member.slice(0, equals);
    if (equals < 0 || !TRACESTATE_KEY.test(key) || !TRACESTATE_VALUE.test(member.slice(equals + 1))) {
      return undefined;
    }
    if (keys.has(key)) return undefined;
    keys.add(key);
  }
  if (keys.size === 0 || keys.size > TRACESTATE_MAX_MEMBERS) return undefined;
  return value;
}

function randomHexId(bytes: number): string {
  for (;;) {
    const id = randomBytes(bytes).toString('hex');
    if (!ALL_ZERO.test(id)) return id;
  }
}

/** A new trace-id: 16 random bytes, never all zero. */
export const newTraceId = (): string => randomHexId(16);
/** A new span (parent) id: 8 random bytes, never all zero. */
export const newSpanId = (): string => randomHexId(8);

/**
 * The trace a request joins: the caller's when its `traceparent` is valid (its `tracestate` kept
 * when valid too), else a new one, not sampled, as the spec asks of a trace started by a component
 * that records nothing beyond its logs. Either way the request gets a new span id of its own.
 */
export function continueTrace(headers: {
  readonly traceparent?: string | undefined;
  readonly tracestate?: string | undefined;
}): TraceContext {
  const parent = parseTraceparent(headers.traceparent);
  if (parent === undefined) return startTrace();
  return {
    traceId: parent.traceId,
    spanId: newSpanId(),
    parentSpanId: parent.parentId,
    sampled: parent.sampled,
    // The spec forbids reading tracestate beside a traceparent that did not parse.
    traceState: validTracestate(headers.tracestate),
  };
}

/** A trace for work no request caused (start-up, a background refresh). */
export function startTrace(): TraceContext {
  return {
    traceId: newTraceId(),
    spanId: newSpanId(),
    parentSpanId: undefined,
    sampled: false,
    traceState: undefined,
  };
}

/** The headers of a call made on behalf of `trace`: its trace id, this server's span id as parent. */
export function traceHeaders(trace: TraceContext): { traceparent: string; tracestate?: string } {
  const traceparent = formatTraceparent({
    traceId: trace.traceId,
    parentId: trace.spanId,
    sampled: trace.sampled,
  });
  return trace.traceState === undefined ? { traceparent } : { traceparent, tracestate: trace.traceState };
}
