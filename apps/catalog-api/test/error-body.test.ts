import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceError } from '@catalog/contracts';
import {
  createLogger,
  ensureLocalTls,
  listen,
  type RunningServer,
  requestContext,
} from '@catalog/server-runtime';
import { rawRequest } from '@catalog/server-runtime/testing';
import Router from '@koa/router';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppState } from '../src/http/app-state.ts';
import { errorBody } from '../src/http/error-body.ts';

let dataDir: string;
let ca: string;
const servers: RunningServer[] = [];
const logger = createLogger('catalog-api-test', 'silent');

async function serve(app: Koa<AppState>) {
  const tls = await ensureLocalTls(dataDir);
  ca = tls.ca ?? '';
  const server = await listen({
    handler: app.callback(),
    host: '127.0.0.1',
    port: 0,
    tls,
    portVariable: 'PORT',
  });
  servers.push(server);
  return `https://localhost:${server.port}`;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'catalog-api-errors-'));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close(100)));
  await rm(dataDir, { recursive: true, force: true });
});

describe('error body (spec 7.2)', () => {
  describe('with routes that fail', () => {
    let base: string;
    beforeAll(async () => {
      const app = new Koa<AppState>();
      const router = new Router<AppState>();
      router.get('/boom', () => {
        throw new Error('database password is hunter2');
      });
      router.get('/incomplete', () => {
        throw ServiceError.of('SEARCH_INCOMPLETE', 'The search results could not be proven complete');
      });
      router.get('/typed', () => {
        throw ServiceError.of('VALIDATION_ERROR', 'size must be at most 100', {
          details: { field: 'size', reason: 'must be <= 100' },
        });
      });
      app.use(requestContext(logger));
      app.use(errorBody());
      app.use(router.routes());
      app.use(router.allowedMethods());
      base = await serve(app);
    });

    it('answers an unexpected error with a generic 500 that carries no code, no internals and no stack', async () => {
      const reply = await rawRequest(`${base}/boom`, { ca });
      expect(reply.status).toBe(500);
      const body = JSON.parse(reply.body);
      expect(Object.keys(body).sort()).toEqual(['message', 'requestId']);
      expect(reply.body).not.toContain('hunter2');
      expect(reply.body).not.toMatch(/\bat\s.+\(/);
    });

    it('maps a typed error to its status, contract code, details and requestId', async () => {
      const reply = await rawRequest(`${base}/typed`, { ca });
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body)).toEqual({
        message: 'size must be at most 100',
        error: 'VALIDATION_ERROR',
        details: { field: 'size', reason: 'must be <= 100' },
        requestId: reply.headers['x-request-id'],
      });
    });

    it('keeps the status and code of a deliberate 503 such as SEARCH_INCOMPLETE (spec 7.3)', async () => {
      const reply = await rawRequest(`${base}/incomplete`, { ca });
      expect(reply.status).toBe(503);
      const body = JSON.parse(reply.body);
      expect(body.error).toBe('SEARCH_INCOMPLETE');
      expect(body).not.toHaveProperty('data');
    });

    it('answers a wrong method with 405 and an Allow header', async () => {
      const reply = await rawRequest(`${base}/typed`, { ca, method: 'DELETE' });
      expect(reply.status).toBe(405);
      expect(reply.headers.allow).toContain('GET');
      expect(JSON.parse(reply.body).message).toBeTypeOf('string');
    });
  });
});
