import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, ensureLocalTls, listen, ShutdownState } from '@catalog/server-runtime';
import { rawRequest, spawnService } from '@catalog/server-runtime/testing';
import { describe, expect, it } from 'vitest';
import { buildAuthServer } from '../src/auth-server.ts';
import { loadAuthServerConfig } from '../src/config/config.ts';

// /ready on the token server: 200 only once the store answers and the signing keys are in service,
// and never again once the process stops; /health stays liveness.

const entry = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/** Polls until `read` gives `expected`, for up to a minute; returns the last value read. */
async function until<T>(read: () => Promise<T>, expected: T): Promise<T> {
  const deadline = Date.now() + 60_000;
  let value = await read();
  while (value !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

describe('token server readiness', () => {
  it('is not ready while starting (signing keys not yet in service), ready once they are, and not ready once the store is closed', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'auth-ready-'));
    try {
      const config = loadAuthServerConfig({ DATA_DIR: dataDir, AUTH_SERVER_PORT: '0', LOG_LEVEL: 'silent' });
      const tls = await ensureLocalTls(dataDir);
      const shutdown = new ShutdownState();
      const server = await buildAuthServer({
        config,
        logger: createLogger('auth-server', 'silent'),
        shutdown,
      });
      const running = await listen({
        handler: server.handler,
        host: '127.0.0.1',
        port: 0,
        tls,
        portVariable: 'P',
      });
      const url = `https://localhost:${running.port}`;
      const ca = await readFile(join(dataDir, 'tls', 'ca.pem'), 'utf8');
      const ready = async () => {
        const reply = await rawRequest(`${url}/ready`, { ca });
        return { status: reply.status, body: JSON.parse(reply.body) as unknown };
      };
      try {
        // Listening, but the provider (and its keys) is built only once the issuer URL is known.
        expect(await ready()).toEqual({
          status: 503,
          body: { status: 'not-ready', checks: { store: 'ok', signingKeys: 'failing', shutdown: 'running' } },
        });
        expect((await rawRequest(`${url}/health`, { ca })).status).toBe(200);

        server.start(url);
        expect(await ready()).toEqual({
          status: 200,
          body: { status: 'ready', checks: { store: 'ok', signingKeys: 'ok', shutdown: 'running' } },
        });

        shutdown.startDraining();
        expect(await ready()).toEqual({
          status: 503,
          body: { status: 'not-ready', checks: { shutdown: 'draining' } },
        });
      } finally {
        await server.close();
      }
      // The store is closed now: a fresh process state would be "store unavailable".
      const afterClose = new ShutdownState();
      const reopened = await buildAuthServer({
        config,
        logger: createLogger('auth-server', 'silent'),
        shutdown: afterClose,
      });
      reopened.start(url);
      await reopened.close();
      const probe = await listen({
        handler: reopened.handler,
        host: '127.0.0.1',
        port: 0,
        tls,
        portVariable: 'P',
      });
      try {
        const reply = await rawRequest(`https://localhost:${probe.port}/ready`, { ca });
        expect(reply.status).toBe(503);
        expect(JSON.parse(reply.body)).toEqual({
          status: 'not-ready',
          checks: { store: 'failing', signingKeys: 'ok', shutdown: 'running' },
        });
      } finally {
        await probe.close(100);
        await running.close(100);
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('on SIGTERM answers /ready 503 at once and keeps serving the token endpoint and JWKS while draining', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'auth-drain-'));
    const server = await spawnService({
      entry,
      env: { DATA_DIR: dataDir, AUTH_SERVER_PORT: '0', SHUTDOWN_DRAIN_MS: '600000' },
    });
    try {
      const ca = await readFile(join(dataDir, 'tls', 'ca.pem'), 'utf8');
      const status = async (path: string) => (await rawRequest(`${server.url}${path}`, { ca })).status;
      expect(await status('/ready')).toBe(200);
      server.child.kill('SIGTERM');
      expect(await until(() => status('/ready'), 503)).toBe(503);
      expect(await status('/.well-known/jwks.json')).toBe(200);
      expect(await status('/health')).toBe(200);
    } finally {
      // A second signal ends the drain at once.
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
