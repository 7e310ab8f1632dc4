// W3C Trace Context (level 1) on every request the SDK sends: a logical operation (one call with its
// retries and the token request it needed, or one sync run) is one trace, and each attempt is sent
// with a parent-id of its own. The servers' parser lives in a private package the published SDK
// cannot load; the SDK only reads the trace id and the sampled flag of a caller's header.
import { randomBytes } from 'node:crypto';
import { ConfigurationError } from '../errors.ts';

/** The trace a logical operation belongs to. */
export interface Trace {
  readonly traceId: string;
  readonly sampled: boolean;
}

// version "-" trace-id "-" parent-id "-" trace-flags; a later version may add "-" and more fields.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/s;
const ALL_ZERO = /^0+$/;

function randomId(bytes: number): string {
  for (;;) {
    const id = randomBytes(bytes).toString('hex');
    if (!ALL_ZERO.test(id)) return id;
  }
}

/**
 * The trace a caller's `traceparent` names (its trace id and sampled flag), or a new trace, not
 * sampled, when none is given. A value that is not a valid traceparent is a ConfigurationError.
 */
export function traceOf(traceparent: string | undefined): Trace {
  if (traceparent === undefined) return { traceId: randomId(16), sampled: false };
  const match = TRACEPARENT.exec(traceparent);
  const [, version, traceId = '', parentId = '', flags = '', rest] = match ?? [];
  if (
    match === null ||
    version === 'ff' ||
    (version === '00' && rest !== undefined) ||
    ALL_ZERO.test(traceId) ||
    ALL_ZERO.test(parentId)
  ) {
    throw new ConfigurationError({
      message: `traceparent is not a W3C traceparent (00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>): ${traceparent}`,
    });
  }
  return { traceId, sampled: (Number.parseInt(flags, 16) & 1) === 1 };
}

/** The `traceparent` of one request in `trace`: version 00, a new parent-id. */
export function childTraceparent(trace: Trace): string {
  return `00-${trace.traceId}-${randomId(8)}-${trace.sampled ? '01' : '00'}`;
}
