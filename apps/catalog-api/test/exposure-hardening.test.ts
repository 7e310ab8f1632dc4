import { chmod, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { fileURLToPath } from 'node:url';
import {
  type RawReply,
  rawRequest,
  type SpawnedService,
  spawnService,
} from '@catalog/server-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.ts';

const apiEntry = fileURLToPath(new URL('../src/main.ts', import.meta.url));

let stack: Stack;
let admin: string;

beforeAll(async () => {
  stack = await startStack();
  admin = await stack.idToken(['admin']);
});
afterAll(async () => {
  await stack?.stop();
});

/** A request whose Host header is the caller's choice, over TLS to the real certificate's name. */
const requestWithHost = (url: string, host: string, options: { method?: string; token?: string } = {}) =>
  rawRequest(url, {
    ca: stack.ca,
    servername: 'localhost',
    headers: { Host: host, ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}) },
    ...(options.method ? { method: options.method } : {}),
  });

/** Sends raw request bytes over TLS and resolves with the raw answer. */
function rawExchange(service: SpawnedService, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect(
      { host: '127.0.0.1', port: service.port, servername: 'localhost', ca: stack.ca },
      () => socket.end(request),
    );
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
    });
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

/** Waits until the service has logged a request line for `path` (its output is read asynchronously). */
async function loggedRequest(service: SpawnedService, path: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const line = service
      .output()
      .split('\n')
      .find((candidate) => candidate.includes('"msg":"request"') && candidate.includes(`"url":"${path}`));
    if (line !== undefined) return line;
    if (Date.now() > deadline) throw new Error(`no request line for ${path}:\n${service.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('security headers on real responses of both servers (issue 13)', () => {
  const expectBaseline = (headers: RawReply['headers']) => {
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['strict-transport-security']).toBe('max-age=31536000');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  };

  it('catalog API: JSON responses, errors and the /docs page carry nosniff, HSTS and frame denial', async () => {
    expectBaseline((await stack.call('/health')).headers);
    expectBaseline((await stack.call('/products/search')).headers);
    const docs = await stack.call('/docs');
    expect(docs.status).toBe(200);
    expectBaseline(docs.headers);
    expect(docs.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it("token server: oidc-provider's own error page cannot be framed, and its JSON carries nosniff and HSTS", async () => {
    // An authorization request for an unknown client: oidc-provider renders its HTML error page
    // itself (there is no redirect URI it may trust). Its logout page, framed here before, is off.
    const errorPage = await requestWithHost(
      `${stack.auth.url}/oauth2/authorize?client_id=unknown-client&response_type=code&scope=openid`,
      `localhost:${stack.auth.port}`,
    );
    expect(errorPage.status).toBe(400);
    expect(errorPage.headers['content-type']).toMatch(/text\/html/);
    expectBaseline(errorPage.headers);
    const discovery = await requestWithHost(
      `${stack.auth.url}/.well-known/openid-configuration`,
      `localhost:${stack.auth.port}`,
    );
    expectBaseline(discovery.headers);
  });
});

describe('credentials in query strings (issue 13, RFC 6750 §2.3)', () => {
  it('refuses access_token in the query with 400 VALIDATION_ERROR naming it, even beside a valid header', async () => {
    const { token } = await stack.m2mToken(['products.read']);
    for (const options of [{}, { token }]) {
      const reply = await stack.call<{ error: string; details: { field: string }; message: string }>(
        `/products/search?access_token=${token}`,
        options,
      );
      expect(reply.status).toBe(400);
      expect(reply.body.error).toBe('VALIDATION_ERROR');
      expect(reply.body.details.field).toBe('access_token');
      expect(reply.body.message).toMatch(/Authorization header/);
      expect(reply.text).not.toContain(token);
    }
  });

  it('logs neither a client secret sent to the token server nor a token sent to the API in the query', async () => {
    const secret = 'not-a-real-secret-Q1w2E3r4T5y6';
    await requestWithHost(
      `${stack.auth.url}/oauth2/token?grant_type=client_credentials&client_secret=${secret}`,
      `localhost:${stack.auth.port}`,
      { method: 'POST' },
    );
    const token = 'eyJ.not-a-real-token.Zx9';
    await stack.call(`/products/search?q=lamp&access_token=${token}`);
    const authLine = await loggedRequest(stack.auth, '/oauth2/token?');
    const apiLine = await loggedRequest(stack.api, '/products/search?q=lamp');
    expect(authLine).toContain('client_secret=[redacted]');
    expect(apiLine).toContain('access_token=[redacted]');
    expect(stack.auth.output()).not.toContain(secret);
    expect(stack.api.output()).not.toContain(token);
  });
});

describe('public URLs never come from the Host header (issue 13)', () => {
  it("/openapi.json names this deployment's own URL as its server whatever Host says", async () => {
    const reply = await requestWithHost(`${stack.api.url}/openapi.json`, 'evil.example');
    expect(reply.status).toBe(200);
    const servers = (JSON.parse(reply.body) as { servers: Array<{ url: string }> }).servers;
    expect(servers.map((server) => server.url)).toEqual([stack.api.url]);
  });

  it("rotate-secret's consoleUrl points at this deployment whatever Host says", async () => {
    const { client } = await stack.client({ scopes: ['products.read'] });
    const reply = await requestWithHost(
      `${stack.api.url}/oauth/clients/${client.clientId}/rotate-secret`,
      'evil.example',
      { method: 'POST', token: admin },
    );
    expect(reply.status).toBe(200);
    const { consoleUrl } = JSON.parse(reply.body) as { consoleUrl: string };
    expect(consoleUrl.startsWith(`${stack.api.url}/`)).toBe(true);
    expect(consoleUrl).not.toContain('evil.example');
  });

  it('refuses a request with two Host headers (400) on both servers', async () => {
    for (const service of [stack.api, stack.auth]) {
      const reply = await rawExchange(
        service,
        `GET /health HTTP/1.1\r\nHost: localhost:${service.port}\r\nHost: evil.example\r\n\r\n`,
      );
      expect(reply).toMatch(/^HTTP\/1\.1 400 /);
      expect(reply).toContain('exactly one Host header');
    }
  });
});

describe('the database and DATA_DIR are private to the service user (issue 13)', () => {
  it('creates catalog.sqlite and its -wal and -shm files readable and writable by the owner only (0600)', async () => {
    for (const file of ['catalog.sqlite', 'catalog.sqlite-wal', 'catalog.sqlite-shm']) {
      expect(((await stat(join(stack.dataDir, file))).mode & 0o777).toString(8), file).toBe('600');
    }
  });

  it('creates a missing DATA_DIR 0700, and warns at start-up, naming it, when an existing one is open to others', async () => {
    const root = await mkdtemp(join(tmpdir(), 'catalog-data-dir-'));
    const dataDir = join(root, 'fresh', 'data');
    const shared = join(root, 'shared');
    const env = (dir: string) => ({
      DATA_DIR: dir,
      CATALOG_API_PORT: '0',
      DEMO_CATALOGUE_PRODUCTS: '0',
      PUBLIC_AUTH_URL: stack.auth.url,
    });
    try {
      const fresh = await spawnService({ entry: apiEntry, env: env(dataDir) });
      await fresh.stop();
      expect(((await stat(dataDir)).mode & 0o777).toString(8)).toBe('700');
      expect(((await stat(join(dataDir, 'catalog.sqlite'))).mode & 0o777).toString(8)).toBe('600');
      expect(fresh.output()).not.toContain('accessible to other users');

      await mkdir(shared);
      await chmod(shared, 0o755);
      const exposed = await spawnService({ entry: apiEntry, env: env(shared) });
      await exposed.stop();
      const warning = exposed
        .output()
        .split('\n')
        .find((line) => line.includes('accessible to other users'));
      expect(warning).toBeDefined();
      expect(JSON.parse(warning ?? '{}')).toMatchObject({ level: 'warn', dataDir: shared });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
