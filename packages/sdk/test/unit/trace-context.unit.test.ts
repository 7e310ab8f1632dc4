// The SDK's reading of a caller's traceparent and the headers it sends (W3C Trace Context level 1).
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors.ts';
import { childTraceparent, traceOf } from '../../src/http/trace-context.ts';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

describe('trace context of the SDK’s requests', () => {
  it('takes the trace id and the sampled flag of a caller’s traceparent, a later version’s too', () => {
    expect(traceOf(`00-${TRACE_ID}-${PARENT_ID}-01`)).toEqual({ traceId: TRACE_ID, sampled: true });
    expect(traceOf(`00-${TRACE_ID}-${PARENT_ID}-02`)).toEqual({ traceId: TRACE_ID, sampled: false });
    expect(traceOf(`01-${TRACE_ID}-${PARENT_ID}-01-more`)).toEqual({ traceId: TRACE_ID, sampled: true });
  });

  it('starts a new, unsampled trace when none is given', () => {
    const trace = traceOf(undefined);
    expect(trace.traceId).toMatch(/^(?!0+$)[0-9a-f]{32}$/);
    expect(trace.sampled).toBe(false);
    expect(traceOf(undefined).traceId).not.toBe(trace.traceId);
  });

  it('refuses a value that is not a valid traceparent with a ConfigurationError', () => {
    for (const value of [
      '',
      'garbage',
      `ff-${TRACE_ID}-${PARENT_ID}-01`,
      `00-${TRACE_ID}-${PARENT_ID}-01-more`,
      `00-${'0'.repeat(32)}-${PARENT_ID}-01`,
      `00-${TRACE_ID}-${'0'.repeat(16)}-01`,
      `00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01`,
      `00-${TRACE_ID.slice(2)}-${PARENT_ID}-01`,
    ]) {
      expect(() => traceOf(value), value).toThrow(ConfigurationError);
    }
  });

  it('sends version 00 with the trace id, a new parent id each time and the sampled flag alone', () => {
    const sampled = { traceId: TRACE_ID, sampled: true };
    const first = childTraceparent(sampled);
    const second = childTraceparent(sampled);
    expect(first).toMatch(new RegExp(`^00-${TRACE_ID}-(?!0{16})[0-9a-f]{16}-01$`));
    expect(second).not.toBe(first);
    expect(childTraceparent({ traceId: TRACE_ID, sampled: false })).toMatch(/-00$/);
  });
});
