import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { continueTrace, newSpanId, newTraceId, startTrace } from '@catalog/server-runtime';
import { type LogLine, logLines, rawRequest, waitForLogLine } from '@catalog/server-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier } from '../src/auth/token-verifier.ts';
import { type Stack, startStack } from './support/stack.ts';

// W3C trace context across the two real servers: the API logs the caller's trace id on its request
// line and sends it on to the token server when the request makes it fetch the keys.

const JWKS_PATH = '/.well-known/jwks.json';
const isRequest = (line: LogLine) => line.msg === 'request';
const isJwksFetch = (line: LogLine) => isRequest(line) && String(line.url).startsWith(JWKS_PATH);

let stack: Stack;
let token: string;

beforeAll(async () => {
  stack = await startStack({ demoProducts: 3 });
  // Straight from the token server: the API has not been called yet, so it holds no keys.
  ({ token } = await stack.m2mToken(['products.read']));
});
afterAll(async () => {
  await stack?.stop();
});

describe('trace context from the caller through the API to the token server', () => {
  // First, on purpose: the API fetches the token server's keys on the first request that needs
  // them, which is this one (a key rotation would make it refetch only once its 30 s cool-down is
  // over, which a test cannot wait for without a sleep).
  it('logs the caller’s trace id on the API’s request line, and the key fetch that request caused carries it, the API’s span as parent', async () => {
    const traceId = newTraceId();
    const parentId = newSpanId();
    const reply = await stack.call('/products/search?size=1', {
      token,
      headers: {
        traceparent: `00-${traceId}-${parentId}-01`,
        tracestate: 'congo=t61rcWkgMzE',
        'X-Request-Id': 'trace-context-valid',
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.traceparent).toBeUndefined();

    const apiLine = await waitForLogLine(stack.api, (line) => isRequest(line) && line.traceId === traceId);
    expect(apiLine).toMatchObject({
      url: '/products/search?size=1',
      status: 200,
      requestId: 'trace-context-valid',
      parentSpanId: parentId,
    });
    expect(apiLine.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(apiLine.spanId).not.toBe(parentId);

    const jwksLine = await waitForLogLine(
      stack.auth,
      (line) => isJwksFetch(line) && line.traceId === traceId,
    );
    expect(jwksLine).toMatchObject({ status: 200, parentSpanId: apiLine.spanId });
    expect(logLines(stack.auth).filter(isJwksFetch)).toHaveLength(1);
  });

  it('serves a request whose traceparent is invalid under a new trace id, logged on its request line', async () => {
    const refusedTraceId = newTraceId();
    for (const [index, traceparent] of [
      `00-${refusedTraceId.toUpperCase()}-${newSpanId()}-01`,
      `00-${'0'.repeat(32)}-${newSpanId()}-01`,
      `ff-${refusedTraceId}-${newSpanId()}-01`,
      `00-${refusedTraceId}-${newSpanId()}-01-extra`,
      'not a traceparent at all',
    ].entries()) {
      const requestId = `trace-context-invalid-${index}`;
      const reply = await stack.call('/products/search?size=1', {
        token,
        headers: { traceparent, 'X-Request-Id': requestId },
      });
      expect(reply.status, traceparent).toBe(200);
      const line = await waitForLogLine(
        stack.api,
        (entry) => isRequest(entry) && entry.requestId === requestId,
      );
      expect(line.traceId, traceparent).toMatch(/^(?!0+$)[0-9a-f]{32}$/);
      expect(line.traceId).not.toBe(refusedTraceId);
      expect(line).not.toHaveProperty('parentSpanId');
    }
  });

  it('gives every request a trace id, the caller’s or a new one, on the request line, refusals and public routes included', async () => {
    const unauthenticated = await stack.call('/products/search', {
      headers: { 'X-Request-Id': 'trace-context-401' },
    });
    expect(unauthenticated.status).toBe(401);
    const health = await stack.call('/health', { headers: { 'X-Request-Id': 'trace-context-health' } });
    expect(health.status).toBe(200);
    for (const requestId of ['trace-context-401', 'trace-context-health']) {
      const line = await waitForLogLine(
        stack.api,
        (entry) => isRequest(entry) && entry.requestId === requestId,
      );
      expect(line.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(line.spanId).toMatch(/^[0-9a-f]{16}$/);
    }
  });
});

describe('key fetches of the API’s token verifier', () => {
  const verifier = () =>
    createTokenVerifier({
      issuer: stack.auth.url,
      jwksUrl: `${stack.auth.url}${JWKS_PATH}`,
      caFile: join(stack.dataDir, 'tls', 'ca.pem'),
      tokenEndpoint: `${stack.auth.url}/oauth2/token`,
    });

  it('a fetch no request caused (readiness) starts a trace of its own, found nowhere else', async () => {
    const earlier = new Set(
      logLines(stack.auth)
        .filter(isJwksFetch)
        .map((entry) => entry.traceId),
    );
    expect(await verifier().keysAvailable()).toBe(true);
    const line = await waitForLogLine(
      stack.auth,
      (entry) => isJwksFetch(entry) && !earlier.has(entry.traceId),
    );
    expect(line.traceId).toMatch(/^(?!0+$)[0-9a-f]{32}$/);
    const elsewhere = [...logLines(stack.api), ...logLines(stack.auth)].filter(
      (entry) => entry.traceId === line.traceId,
    );
    expect(elsewhere).toEqual([line]);
  });

  it('a fetch caused by a verification carries the request’s trace id, its span as parent', async () => {
    const trace = startTrace();
    await verifier().verify(token, trace);
    const line = await waitForLogLine(
      stack.auth,
      (entry) => isJwksFetch(entry) && entry.traceId === trace.traceId,
    );
    expect(line.parentSpanId).toBe(trace.spanId);
  });

  it('sends the request’s tracestate on unchanged, and its sampled flag, with the trace id and its span as parent', async () => {
    // A loopback server in front of the token server's real key set, to see the headers as sent.
    const seen: IncomingHttpHeaders[] = [];
    const jwks = (await rawRequest(`${stack.auth.url}${JWKS_PATH}`, { ca: stack.ca })).body;
    const relay = createServer((request, response) => {
      seen.push(request.headers);
      response.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
    });
    relay.listen(0, '127.0.0.1');
    await once(relay, 'listening');
    try {
      const url = `http://127.0.0.1:${(relay.address() as AddressInfo).port}${JWKS_PATH}`;
      const trace = continueTrace({
        traceparent: `00-${newTraceId()}-${newSpanId()}-01`,
        tracestate: 'rojo=00f067aa0ba902b7, congo=t61rcWkgMzE',
      });
      const relayed = createTokenVerifier({
        issuer: stack.auth.url,
        jwksUrl: url,
        caFile: undefined,
        tokenEndpoint: `${stack.auth.url}/oauth2/token`,
      });
      expect((await relayed.verify(token, trace)).kind).toBe('m2m');
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({
        traceparent: `00-${trace.traceId}-${trace.spanId}-01`,
        tracestate: 'rojo=00f067aa0ba902b7, congo=t61rcWkgMzE',
      });
    } finally {
      relay.closeAllConnections();
      relay.close();
    }
  });
});
