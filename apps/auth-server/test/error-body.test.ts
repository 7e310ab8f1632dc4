import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceError } from '@catalog/contracts';
import {
  createLogger,
  ensureLocalTls,
  listen,
  type RunningServer,
  ShutdownState,
} from '@catalog/server-runtime';
import { rawRequest } from '@catalog/server-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginLockout } from '../src/accounts/login-lockout.ts';
import { memoryRateLimiters } from '../src/adapters/memory-rate-limiters.ts';
import { memorySignIns } from '../src/adapters/memory-sign-ins.ts';
import { createApp } from '../src/app.ts';
import { loadAuthServerConfig } from '../src/config/config.ts';
import { ConcurrencyGate } from '../src/limits/concurrency-gate.ts';
import { AuthMetrics } from '../src/metrics/auth-metrics.ts';
import { ProviderHolder } from '../src/oidc/provider-holder.ts';

/** A provider holder that fails with whatever the test sets: the token server's routes meet it first. */
class FailingProviderHolder extends ProviderHolder {
  failure: unknown = new Error('no provider');

  override current(): ReturnType<ProviderHolder['current']> {
    return Promise.reject(this.failure);
  }
}

const SECRET_DETAIL = 'connection to 10.0.0.7 refused while reading secret row 42';

let dataDir: string;
let running: RunningServer;
let url: string;
let ca: string;
const holder = new FailingProviderHolder();

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'auth-server-error-body-'));
  const config = loadAuthServerConfig({ DATA_DIR: dataDir, AUTH_SERVER_PORT: '0', LOG_LEVEL: 'silent' });
  const tls = await ensureLocalTls(dataDir);
  const unlimited = { points: 0, windowSeconds: 1 };
  const app = createApp({
    config,
    logger: createLogger('auth-server', 'silent'),
    provider: holder,
    accounts: { findByEmail: async () => undefined, findById: async () => undefined },
    loginAttempts: new LoginLockout({
      perEmail: memoryRateLimiters('login-email', unlimited),
      perIp: memoryRateLimiters('login-ip', unlimited),
    }),
    auditTrail: { record: async () => undefined },
    passwordChecks: new ConcurrencyGate({ concurrency: 1, queue: 1 }),
    signIns: memorySignIns(10),
    tokenRequestsPerIp: memoryRateLimiters('token-ip', unlimited),
    signInRequestsPerIp: memoryRateLimiters('sign-in-ip', unlimited),
    csrfKey: new Uint8Array(32),
    metrics: new AuthMetrics({ enabled: false }),
    readiness: {},
    shutdown: new ShutdownState(),
  });
  running = await listen({
    handler: app.callback(),
    host: '127.0.0.1',
    port: 0,
    tls,
    portVariable: 'AUTH_SERVER_PORT',
  });
  url = `https://localhost:${running.port}`;
  ca = await readFile(join(dataDir, 'tls', 'ca.pem'), 'utf8');
});

afterAll(async () => {
  await running?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("the token server's error middleware, on its own routes", () => {
  it('answers an unexpected error with the contract 500 body, nothing of the error in it', async () => {
    holder.failure = new Error(SECRET_DETAIL);
    const reply = await rawRequest(`${url}/interaction/some-uid`, { ca });
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toEqual({
      error: 'server_error',
      error_description: 'Internal server error',
    });
    expect(reply.body).not.toContain('10.0.0.7');
    expect(reply.body).not.toMatch(/\bat \S+:\d+/);
  });

  it('answers a typed error with its status and contract code', async () => {
    holder.failure = ServiceError.of('FORBIDDEN', 'sign-in is closed to this caller');
    const reply = await rawRequest(`${url}/interaction/some-uid`, { ca });
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body)).toEqual({
      error: 'FORBIDDEN',
      error_description: 'sign-in is closed to this caller',
    });
  });

  it('answers an unexposed 5xx ServiceError as any unexpected error', async () => {
    holder.failure = new ServiceError(503, 'SEARCH_INCOMPLETE', SECRET_DETAIL, { expose: false });
    const reply = await rawRequest(`${url}/interaction/some-uid`, { ca });
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toEqual({
      error: 'server_error',
      error_description: 'Internal server error',
    });
  });

  it('leaves the probes, which never meet the provider, answering', async () => {
    const reply = await rawRequest(`${url}/health`, { ca });
    expect(reply.status).toBe(200);
  });
});
