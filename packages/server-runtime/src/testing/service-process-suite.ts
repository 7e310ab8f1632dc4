import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, runToExit, type SpawnedService, spawnService } from './spawn-service.ts';

/**
 * The start-up rules every server obeys, run against its real entry point in a child process:
 * HTTPS with the local CA, plain HTTP refused, health route, stage prefix, proxy mode,
 * clear failures for bad configuration and a taken port, graceful stop.
 */
export function describeServiceProcess(options: {
  readonly service: string;
  readonly entry: string;
  readonly portVariable: string;
  /** Extra variables every run gets (e.g. to skip demo data). */
  readonly env?: Record<string, string>;
}) {
  const { service, entry, portVariable } = options;
  const baseEnv = options.env ?? {};

  describe(`${service} process`, () => {
    let dataDir: string;
    let running: SpawnedService;
    let ca: string;

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), `${service}-`));
      running = await spawnService({ entry, env: { ...baseEnv, DATA_DIR: dataDir, [portVariable]: '0' } });
      ca = await readFile(join(dataDir, 'tls', 'ca.pem'), 'utf8');
    });
    afterAll(async () => {
      await running?.stop();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('answers /health over TLS with a certificate from the local CA under DATA_DIR/tls', async () => {
      const reply = await rawRequest(`https://localhost:${running.port}/health`, { ca });
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body)).toEqual({ status: 'ok', service });
      expect(reply.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('refuses plain HTTP (spec 5.10) with a 400 that says to use HTTPS', async () => {
      const reply = await rawRequest(`http://127.0.0.1:${running.port}/health`);
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body).message).toMatch(/HTTPS only/);
    });

    it('writes structured JSON logs: one line per request with its id and status', async () => {
      await rawRequest(`https://localhost:${running.port}/health`, {
        ca,
        headers: { 'X-Request-Id': 'probe-request-0001' },
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const line = running
        .output()
        .split('\n')
        .find((l) => l.includes('probe-request-0001'));
      expect(line).toBeDefined();
      expect(JSON.parse(line ?? '{}')).toMatchObject({
        service,
        msg: 'request',
        status: 200,
        url: '/health',
      });
    });

    it('serves every route under the BASE_PATH stage prefix when one is set', async () => {
      const staged = await spawnService({
        entry,
        env: { ...baseEnv, DATA_DIR: dataDir, [portVariable]: '0', BASE_PATH: '/prod' },
      });
      try {
        expect((await rawRequest(`https://localhost:${staged.port}/prod/health`, { ca })).status).toBe(200);
        expect((await rawRequest(`https://localhost:${staged.port}/health`, { ca })).status).toBe(404);
        expect(staged.url).toBe(`https://localhost:${staged.port}/prod`);
      } finally {
        await staged.stop();
      }
    });

    it('behind a TLS-terminating proxy (TRUST_PROXY=true) refuses requests not forwarded as https, or not by one of TRUSTED_PROXIES', async () => {
      const proxied = await spawnService({
        entry,
        env: {
          ...baseEnv,
          DATA_DIR: dataDir,
          [portVariable]: '0',
          TRUST_PROXY: 'true',
          TRUSTED_PROXIES: '127.0.0.1',
        },
      });
      try {
        const base = `http://127.0.0.1:${proxied.port}`;
        const plain = await rawRequest(`${base}/nowhere`);
        expect(plain.status).toBe(400);
        expect(JSON.parse(plain.body).message).toMatch(/HTTPS only/);
        const forwarded = await rawRequest(`${base}/health`, { headers: { 'X-Forwarded-Proto': 'https' } });
        expect(forwarded.status).toBe(200);
        const https = { 'X-Forwarded-Proto': 'https' };
        expect((await rawRequest(`${base}/nowhere`, { headers: https })).status).toBe(404);
        // The same header from a peer that is not the proxy (127.0.0.2) is the caller's own word.
        const around = await rawRequest(`${base}/nowhere`, { headers: https, localAddress: '127.0.0.2' });
        expect(around.status).toBe(400);
        expect(JSON.parse(around.body).message).toMatch(/HTTPS only/);
      } finally {
        await proxied.stop();
      }
    });

    it('exits with code 2 and names each invalid variable when the configuration is wrong', async () => {
      const result = await runToExit({
        entry,
        env: {
          ...baseEnv,
          DATA_DIR: dataDir,
          [portVariable]: 'http',
          BASE_PATH: 'x/',
          TRUST_PROXY: 'true',
          TRUSTED_PROXIES: 'nginx.internal',
        },
      });
      expect(result.code).toBe(2);
      expect(result.output).toContain(`${service}: invalid configuration`);
      expect(result.output).toContain(`${portVariable}`);
      expect(result.output).toContain('BASE_PATH');
      expect(result.output).toContain('TRUSTED_PROXIES');
      expect(result.output).not.toMatch(/\n\s+at /); // no stack trace for an operator error
    });

    it('exits with code 1 and names the port and its variable when the port is taken', async () => {
      const blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
      const { port } = blocker.address() as AddressInfo;
      try {
        const result = await runToExit({
          entry,
          env: { ...baseEnv, DATA_DIR: dataDir, [portVariable]: String(port) },
        });
        expect(result.code).toBe(1);
        expect(result.output).toContain(`port ${port} on 127.0.0.1 is already in use`);
        expect(result.output).toContain(portVariable);
      } finally {
        blocker.close();
      }
    });

    it('stops gracefully on SIGTERM with exit code 0', async () => {
      const extra = await spawnService({
        entry,
        env: { ...baseEnv, DATA_DIR: dataDir, [portVariable]: '0' },
      });
      expect(await extra.stop()).toBe(0);
      expect(extra.output()).toContain('"msg":"stopped"');
    });
  });
}
