import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { ensureLocalTls, listen, type RunningServer, requestContext } from '@catalog/server-runtime';
import { rawRequest } from '@catalog/server-runtime/testing';
import Router from '@koa/router';
import Koa from 'koa';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppState } from '../src/http/app-state.ts';
import { errorBody } from '../src/http/error-body.ts';
import { type Stack, startStack } from './support/stack.ts';

/** A POST with a binary body (rawRequest sends strings only). */
function postBytes(
  url: string,
  options: { ca: string; token: string; headers: Record<string, string>; body: Buffer },
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent: false,
        ca: options.ca,
        headers: {
          Authorization: `Bearer ${options.token}`,
          'Content-Type': 'application/json',
          'Content-Length': String(options.body.length),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('an error a library throws with a status of its own is the generic 500', () => {
  let dataDir: string;
  let server: RunningServer;
  let base: string;
  let ca: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'catalog-api-library-errors-'));
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    const app = new Koa<AppState>();
    const router = new Router<AppState>();
    // Koa's own ctx.throw builds an http-errors error: status 404, expose true, the library's message.
    router.get('/koa-throw', (ctx) => ctx.throw(404, 'no key "billing" in vault /srv/secrets'));
    router.get('/status-shaped', () => {
      throw Object.assign(new Error('upstream refused token eyJhbGciOi'), { status: 401, expose: true });
    });
    app.use(requestContext(pino({ level: 'info' }, sink)));
    app.use(errorBody());
    app.use(router.routes());
    const tls = await ensureLocalTls(dataDir);
    ca = tls.ca ?? '';
    server = await listen({ handler: app.callback(), host: '127.0.0.1', port: 0, tls, portVariable: 'PORT' });
    base = `https://localhost:${server.port}`;
  });
  afterAll(async () => {
    await server?.close(100);
    await rm(dataDir, { recursive: true, force: true });
  });

  it("answers Koa's ctx.throw(404, message) with 500 {message, requestId}, the message logged and never sent", async () => {
    const reply = await rawRequest(`${base}/koa-throw`, { ca });
    expect(reply.status).toBe(500);
    const body = JSON.parse(reply.body);
    expect(body).toEqual({ message: 'Internal server error', requestId: reply.headers['x-request-id'] });
    expect(reply.body).not.toContain('vault');
    expect(logLines.join('')).toContain('no key \\"billing\\" in vault /srv/secrets');
  });

  it('answers an error shaped like a service error (status 401, expose) but not one with 500', async () => {
    const reply = await rawRequest(`${base}/status-shaped`, { ca });
    expect(reply.status).toBe(500);
    expect(reply.body).not.toContain('eyJhbGciOi');
    expect(Object.keys(JSON.parse(reply.body)).sort()).toEqual(['message', 'requestId']);
  });
});

describe("the body parser's errors, each mapped to the contract's shape on a real admin write", () => {
  let stack: Stack;
  let admin: string;
  const product = Buffer.from(JSON.stringify({ productCode: 'GZ-1', name: 'Compressed widget' }));

  beforeAll(async () => {
    stack = await startStack();
    admin = await stack.idToken(['admin']);
  });
  afterAll(() => stack?.stop());

  const post = (headers: Record<string, string>, body: Buffer) =>
    postBytes(`${stack.api.url}/products`, { ca: stack.ca, token: admin, headers, body });

  it('accepts a gzip-compressed JSON body', async () => {
    const reply = await post({ 'Content-Encoding': 'gzip' }, gzipSync(product));
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ productCode: 'GZ-1' });
  });

  it('accepts a body in each Content-Encoding the README names: gzip, deflate and br', async () => {
    const encoders = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
    for (const [encoding, encode] of Object.entries(encoders)) {
      const record = Buffer.from(JSON.stringify({ productCode: `ENC-${encoding}`, name: 'Encoded widget' }));
      const reply = await post({ 'Content-Encoding': encoding }, encode(record));
      expect({ encoding, status: reply.status }).toEqual({ encoding, status: 201 });
    }
  });

  it.each(['zstd', 'foo', 'compress', 'gzip, br'])(
    'answers a Content-Encoding it does not accept (%s) with 415 {message, requestId}',
    async (encoding) => {
      const reply = await post({ 'Content-Encoding': encoding }, product);
      expect(reply.status).toBe(415);
      expect(Object.keys(reply.body).sort()).toEqual(['message', 'requestId']);
      expect(reply.body.message).toMatch(/gzip, deflate or br/);
    },
  );

  const truncated = (body: Buffer) => body.subarray(0, Math.floor(body.length / 2));
  it.each([
    ['br', 'a body that is not brotli', Buffer.from('{"productCode":"GZ-1","name":"plain"}')],
    ['br', 'a truncated brotli body', truncated(brotliCompressSync(Buffer.from('x'.repeat(1000))))],
    ['gzip', 'a body that is not gzip', Buffer.from('not gzip at all')],
    ['gzip', 'a truncated gzip body', truncated(gzipSync(product))],
    ['deflate', 'a body that is not deflate', Buffer.from('not deflate at all')],
  ])(
    'answers Content-Encoding %s with %s by 400 VALIDATION_ERROR: the body could not be decoded',
    async (encoding, _what, body) => {
      const reply = await post({ 'Content-Encoding': encoding }, body);
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({
        message: `body could not be decoded as Content-Encoding ${encoding}`,
        error: 'VALIDATION_ERROR',
        requestId: expect.any(String),
        details: { field: 'body', reason: `could not be decoded as Content-Encoding ${encoding}` },
      });
    },
  );

  it('answers JSON that does not parse (co-body 400 SyntaxError) with 400 VALIDATION_ERROR "must be valid JSON"', async () => {
    const reply = await post({}, Buffer.from('{"productCode": '));
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      error: 'VALIDATION_ERROR',
      details: { field: 'body', reason: 'must be valid JSON' },
    });
  });

  it('answers a body over 1 MB (raw-body entity.too.large) with 413 {message, requestId}', async () => {
    const reply = await post({}, Buffer.from(JSON.stringify({ name: 'x'.repeat(1_100_000) })));
    expect(reply.status).toBe(413);
    expect(Object.keys(reply.body).sort()).toEqual(['message', 'requestId']);
  });
});
