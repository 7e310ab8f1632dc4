import { Writable } from 'node:stream';
import Koa from 'koa';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  continueTrace,
  formatTraceparent,
  newSpanId,
  newTraceId,
  parseTraceparent,
  type RequestContextState,
  type RunningServer,
  requestContext,
  startTrace,
  traceHeaders,
  validTracestate,
} from '../src/index.ts';
import { rawRequest } from '../src/testing/spawn-service.ts';
import { serveOnLoopback } from './support/serve-on-loopback.ts';

// W3C Trace Context level 1: https://www.w3.org/TR/trace-context-1/
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const VALID = `00-${TRACE_ID}-${PARENT_ID}-01`;

describe('traceparent parsing (W3C Trace Context level 1)', () => {
  it('reads the trace id, the parent id and the sampled flag of a valid version-00 header', () => {
    expect(parseTraceparent(VALID)).toEqual({ traceId: TRACE_ID, parentId: PARENT_ID, sampled: true });
    expect(parseTraceparent(`00-${TRACE_ID}-${PARENT_ID}-00`)).toEqual({
      traceId: TRACE_ID,
      parentId: PARENT_ID,
      sampled: false,
    });
  });

  it('reads only the sampled bit of the flags (bit 0), whatever other bits are set', () => {
    expect(parseTraceparent(`00-${TRACE_ID}-${PARENT_ID}-09`)?.sampled).toBe(true);
    expect(parseTraceparent(`00-${TRACE_ID}-${PARENT_ID}-fe`)?.sampled).toBe(false);
  });

  it('refuses an absent or empty header', () => {
    expect(parseTraceparent(undefined)).toBeUndefined();
    expect(parseTraceparent('')).toBeUndefined();
  });

  it('refuses version ff, and a version that is not two lowercase hex digits', () => {
    expect(parseTraceparent(`ff-${TRACE_ID}-${PARENT_ID}-01`)).toBeUndefined();
    expect(parseTraceparent(`0-${TRACE_ID}-${PARENT_ID}-01`)).toBeUndefined();
    expect(parseTraceparent(`000-${TRACE_ID}-${PARENT_ID}-01`)).toBeUndefined();
    expect(parseTraceparent(`0g-${TRACE_ID}-${PARENT_ID}-01`)).toBeUndefined();
    expect(parseTraceparent(`0A-${TRACE_ID}-${PARENT_ID}-01`)).toBeUndefined();
  });

  it('refuses version 00 with anything after the flags', () => {
    expect(parseTraceparent(`${VALID}-`)).toBeUndefined();
    expect(parseTraceparent(`${VALID}-extra`)).toBeUndefined();
    expect(parseTraceparent(`${VALID}x`)).toBeUndefined();
  });

  it('reads a later version by the level-1 rules: the first four fields, then the end or a dash', () => {
    expect(parseTraceparent(`01-${TRACE_ID}-${PARENT_ID}-01`)).toEqual({
      traceId: TRACE_ID,
      parentId: PARENT_ID,
      sampled: true,
    });
    expect(parseTraceparent(`cc-${TRACE_ID}-${PARENT_ID}-00-what-the-future-will-bring`)).toEqual({
      traceId: TRACE_ID,
      parentId: PARENT_ID,
      sampled: false,
    });
    // After the flags of a later version: a dash or nothing.
    expect(parseTraceparent(`cc-${TRACE_ID}-${PARENT_ID}-00.future`)).toBeUndefined();
    // Shorter than 55 characters: not read.
    expect(parseTraceparent(`cc-${TRACE_ID}-${PARENT_ID}-0`)).toBeUndefined();
    // Its first four fields follow the level-1 rules too.
    expect(parseTraceparent(`cc-${'0'.repeat(32)}-${PARENT_ID}-00-x`)).toBeUndefined();
  });

  it('refuses an all-zero trace id or parent id', () => {
    expect(parseTraceparent(`00-${'0'.repeat(32)}-${PARENT_ID}-01`)).toBeUndefined();
    expect(parseTraceparent(`00-${TRACE_ID}-${'0'.repeat(16)}-01`)).toBeUndefined();
  });

  it('refuses uppercase hex in any field', () => {
    expect(parseTraceparent(`00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01`)).toBeUndefined();
    expect(parseTraceparent(`00-${TRACE_ID}-00F067AA0BA902B7-01`)).toBeUndefined();
    expect(parseTraceparent(`00-${TRACE_ID}-${PARENT_ID}-0A`)).toBeUndefined();
  });

  it('refuses fields of the wrong length, non-hex characters and other separators', () => {
    expect(parseTraceparent(`00-${TRACE_ID.slice(1)}-${PARENT_ID}-01`)).toBeUndefined();
    expect(parseTraceparent(`00-${TRACE_ID}0-${PARENT_ID}-01`)).toBeUndefined();
    expect(parseTraceparent(`00-${TRACE_ID}-${PARENT_ID.slice(1)}-01`)).toBeUndefined();
    expect(parseTraceparent(`00-${TRACE_ID}-${PARENT_ID}0-01`)).toBeUndefined();
    expect(parseTraceparent(`00-${TRACE_ID}-${PARENT_ID}-1`)).toBeUndefined();
    expect(parseTraceparent(`00-${TRACE_ID}-${PARENT_ID}-001`)).toBeUndefined();
    expect(parseTraceparent(`00-${TRACE_ID.slice(1)}z-${PARENT_ID}-01`)).toBeUndefined();
    expect(parseTraceparent(`00_${TRACE_ID}_${PARENT_ID}_01`)).toBeUndefined();
    expect(parseTraceparent(` ${VALID}`)).toBeUndefined();
    // Two headers joined by the HTTP layer are not one valid value.
    expect(parseTraceparent(`${VALID}, ${VALID}`)).toBeUndefined();
  });

  it('formats version 00, with the sampled flag alone', () => {
    expect(formatTraceparent({ traceId: TRACE_ID, parentId: PARENT_ID, sampled: true })).toBe(VALID);
    expect(formatTraceparent({ traceId: TRACE_ID, parentId: PARENT_ID, sampled: false })).toBe(
      `00-${TRACE_ID}-${PARENT_ID}-00`,
    );
    // A later version read is sent on as version 00, its other flags as zero.
    const later = parseTraceparent(`cc-${TRACE_ID}-${PARENT_ID}-ff-more`);
    expect(later && formatTraceparent(later)).toBe(VALID);
  });

  it('makes new ids of the right length, lowercase hex, never all zero, and different each time', () => {
    const traceIds = new Set(Array.from({ length: 100 }, newTraceId));
    const spanIds = new Set(Array.from({ length: 100 }, newSpanId));
    expect(traceIds.size).toBe(100);
    expect(spanIds.size).toBe(100);
    for (const id of traceIds) expect(id).toMatch(/^(?!0+$)[0-9a-f]{32}$/);
    for (const id of spanIds) expect(id).toMatch(/^(?!0+$)[0-9a-f]{16}$/);
  });
});

describe('tracestate (W3C Trace Context level 1)', () => {
  it('passes a valid list on unchanged, optional whitespace and empty members included', () => {
    for (const value of [
      'rojo=00f067aa0ba902b7',
      'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE',
      'rojo=00f067aa0ba902b7 ,\tcongo=t61rcWkgMzE',
      'congo=t61rcWkgMzE,,, ,rojo=1',
      'tenant1@system=x',
      '0tenant@sys-tem_*/=value with spaces inside',
      'a/b*c_d-e=!"#$%&\'()*+-./:;<>?@[\\]^_`{|}~',
      'a= leading space kept',
    ]) {
      expect(validTracestate(value), value).toBe(value);
    }
    const thirtyTwo = Array.from({ length: 32 }, (_, index) => `k${index}=v`).join(',');
    expect(validTracestate(thirtyTwo)).toBe(thirtyTwo);
    const longest = `${'k'.repeat(256)}=${'v'.repeat(256)}`;
    expect(validTracestate(longest)).toBe(longest);
  });

  it('drops the whole header when any member is invalid, never a repaired part of it', () => {
    for (const value of [
      'Rojo=1', // uppercase key
      '1abc=1', // a simple key starts with a letter
      'rojo', // no value
      'rojo=', // empty value
      '=1', // empty key
      'rojo=a=b', // "=" in a value
      'ro jo=1', // space in a key
      'rojo=1,congo=\u00e9', // not printable ASCII
      'rojo=1,rojo=2', // a key twice
      'a@B=1', // uppercase system id
      'a@1sys=1', // a system id starts with a letter
      `a@${'s'.repeat(15)}=1`, // system id longer than 14
      `${'t'.repeat(242)}@s=1`, // tenant id longer than 241
      `${'k'.repeat(257)}=1`, // key longer than 256
      `k=${'v'.repeat(257)}`, // value longer than 256
      'good=1,Bad=2',
    ]) {
      expect(validTracestate(value), value).toBeUndefined();
    }
    const thirtyThree = Array.from({ length: 33 }, (_, index) => `k${index}=v`).join(',');
    expect(validTracestate(thirtyThree)).toBeUndefined();
  });

  it('sends nothing for an absent, empty or whitespace-only list', () => {
    expect(validTracestate(undefined)).toBeUndefined();
    expect(validTracestate('')).toBeUndefined();
    expect(validTracestate(' , ,\t')).toBeUndefined();
  });
});

describe('joining and propagating a trace', () => {
  it('joins the caller’s trace with a new span id of its own, and passes on its tracestate', () => {
    const trace = continueTrace({ traceparent: VALID, tracestate: 'congo=t61rcWkgMzE' });
    expect(trace).toMatchObject({
      traceId: TRACE_ID,
      parentSpanId: PARENT_ID,
      sampled: true,
      traceState: 'congo=t61rcWkgMzE',
    });
    expect(trace.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(trace.spanId).not.toBe(PARENT_ID);
    expect(traceHeaders(trace)).toEqual({
      traceparent: `00-${TRACE_ID}-${trace.spanId}-01`,
      tracestate: 'congo=t61rcWkgMzE',
    });
  });

  it('keeps the caller’s trace but drops an invalid tracestate', () => {
    const trace = continueTrace({ traceparent: VALID, tracestate: 'Congo=1' });
    expect(trace.traceId).toBe(TRACE_ID);
    expect(trace.traceState).toBeUndefined();
    expect(traceHeaders(trace)).toEqual({ traceparent: `00-${TRACE_ID}-${trace.spanId}-01` });
  });

  it('starts a new, unsampled trace for an invalid or absent traceparent, and ignores tracestate beside it', () => {
    for (const traceparent of [undefined, `00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01`, 'garbage']) {
      const trace = continueTrace({
        ...(traceparent === undefined ? {} : { traceparent }),
        tracestate: 'congo=1',
      });
      expect(trace.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(trace.traceId).not.toBe(TRACE_ID);
      expect(trace).toMatchObject({ parentSpanId: undefined, sampled: false, traceState: undefined });
      expect(traceHeaders(trace)).toEqual({ traceparent: `00-${trace.traceId}-${trace.spanId}-00` });
    }
    expect(startTrace().traceId).not.toBe(startTrace().traceId);
  });
});

describe('the trace on the request log (requestContext)', () => {
  const running: RunningServer[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.close(100)));
  });

  async function serve() {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const app = new Koa<RequestContextState>();
    app.use(requestContext(pino(sink)));
    app.use(async (ctx) => {
      ctx.state.log.info('handled');
      ctx.body = { trace: ctx.state.trace, outgoing: traceHeaders(ctx.state.trace) };
    });
    return { lines, url: `${await serveOnLoopback(app.callback(), running)}/x` };
  }

  it('logs the caller’s trace id, its own span id and the caller’s parent id on every line of the request, and offers the trace to outgoing calls', async () => {
    const { lines, url } = await serve();
    const reply = await rawRequest(url, { headers: { traceparent: VALID, tracestate: 'congo=1' } });
    expect(reply.status).toBe(200);
    expect(reply.headers.traceparent).toBeUndefined();
    const { trace, outgoing } = JSON.parse(reply.body);
    expect(trace).toMatchObject({ traceId: TRACE_ID, parentSpanId: PARENT_ID, traceState: 'congo=1' });
    expect(outgoing).toEqual({ traceparent: `00-${TRACE_ID}-${trace.spanId}-01`, tracestate: 'congo=1' });
    const [handled, request] = lines;
    expect(handled).toMatchObject({ msg: 'handled', traceId: TRACE_ID, spanId: trace.spanId });
    expect(request).toMatchObject({
      msg: 'request',
      traceId: TRACE_ID,
      spanId: trace.spanId,
      parentSpanId: PARENT_ID,
      status: 200,
    });
  });

  it('serves a request with an invalid traceparent under a new trace id, logged, with no parent id', async () => {
    const { lines, url } = await serve();
    const reply = await rawRequest(url, {
      headers: { traceparent: `00-${TRACE_ID}-${'0'.repeat(16)}-01` },
    });
    expect(reply.status).toBe(200);
    const request = lines.find((line) => line.msg === 'request');
    expect(request?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(request?.traceId).not.toBe(TRACE_ID);
    expect(request?.traceId).toBe(JSON.parse(reply.body).trace.traceId);
    expect(request).not.toHaveProperty('parentSpanId');
  });

  it('gives each request without a traceparent a trace id of its own', async () => {
    const { lines, url } = await serve();
    await rawRequest(url);
    await rawRequest(url);
    const ids = lines.filter((line) => line.msg === 'request').map((line) => line.traceId);
    expect(ids).toHaveLength(2);
    expect(ids[0]).not.toBe(ids[1]);
  });
});
