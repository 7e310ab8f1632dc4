import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminConsoleAssetsDir } from '@catalog/admin-console';
import { validateResponse } from '@catalog/contracts';
import { rawRequest } from '@catalog/server-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiOverStore, startApiOverStore } from './support/api-over-store.ts';
import { type Stack, startStack } from './support/stack.ts';

// The console as `pnpm build` builds it (turbo builds it before this suite; run alone, build it first).
if (!existsSync(join(adminConsoleAssetsDir, 'index.html'))) {
  throw new Error(
    `The admin console is not built (${adminConsoleAssetsDir}index.html is missing): run pnpm --filter @catalog/admin-console build`,
  );
}

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const header = (reply: { headers: Record<string, string | string[] | undefined> }, name: string) =>
  String(reply.headers[name] ?? '');

/** A request whose path is sent as written: no dot-segment removal, no escaping. */
function rawPath(base: string, path: string, ca: string) {
  const { hostname, port } = new URL(base);
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    const req = request({ host: hostname, port, path, ca, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** The `./assets/…` files index.html refers to. */
const assetNames = (html: string) => [...html.matchAll(/\.\/assets\/([\w.-]+)/g)].map((m) => m[1] ?? '');

describe('the console page (issue 17)', () => {
  it('serves /console/ as HTML with <base href="/console/"> first in its head, never cached', async () => {
    const reply = await stack.call<string>('/console/');
    expect(reply.status).toBe(200);
    expect(header(reply, 'content-type')).toMatch(/^text\/html/);
    expect(reply.text).toMatch(/<head[^>]*><base href="\/console\/">/i);
    expect(header(reply, 'cache-control')).toBe('no-store');
  });

  it('sends a strict CSP: no inline script, no framing, and the token server as the only other origin (its one frame the silent renewal)', async () => {
    const reply = await stack.call('/console/');
    const policy = header(reply, 'content-security-policy');
    const directives = new Map(
      policy.split(';').map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    const tokenServer = new URL(stack.auth.url).origin;
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(["'self'", tokenServer]);
    expect(directives.get('form-action')).toEqual(["'self'", tokenServer]);
    expect(directives.get('frame-src')).toEqual(["'self'", tokenServer]);
    expect(directives.get('base-uri')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(header(reply, 'x-frame-options')).toBe('DENY');
    expect(header(reply, 'referrer-policy')).toBe('no-referrer');
  });

  it("answers the same page at /console and at the application's own paths (/console/clients, /console/callback)", async () => {
    const page = (await stack.call('/console/')).text;
    for (const path of [
      '/console',
      '/console/clients',
      '/console/callback?code=x&state=y',
      '/console/channels',
      '/console/preview',
    ]) {
      const reply = await stack.call(path, path === '/console' ? { operation: 'getAdminConsole' } : {});
      expect(reply.status, path).toBe(200);
      expect(reply.text, path).toBe(page);
      expect(header(reply, 'content-security-policy'), path).toContain("script-src 'self'");
    }
  });

  it('the silent renewal lands on a page without script that only the console itself may frame', async () => {
    const reply = await stack.call('/console/silent-callback?code=x&state=y');
    expect(reply.status).toBe(200);
    expect(reply.text).not.toMatch(/<script/i);
    expect(header(reply, 'content-security-policy')).toBe(
      "default-src 'none'; frame-ancestors 'self'; base-uri 'none'",
    );
    expect(header(reply, 'x-frame-options')).toBe('SAMEORIGIN');
    expect(header(reply, 'cache-control')).toBe('no-store');
  });

  it('needs no credentials', async () => {
    expect((await stack.call('/console/clients')).status).toBe(200);
  });
});

describe('the console settings (config.json)', () => {
  it('names the token server, the admin client, its endpoints, this API, the base path and the local CA, never cached', async () => {
    const reply = await stack.call<Record<string, unknown>>('/console/config.json');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      issuer: stack.auth.url,
      clientId: 'catalog-admin',
      authorizationEndpoint: `${stack.auth.url}/oauth2/authorize`,
      endSessionEndpoint: `${stack.auth.url}/oauth2/logout`,
      tokenEndpoint: `${stack.auth.url}/oauth2/token`,
      apiBaseUrl: stack.api.url,
      basePath: '',
      // The embedded default's own CA, for the snippets shown with a new client's secret.
      localCaFile: join(stack.dataDir, 'tls', 'ca.pem'),
    });
    expect(header(reply, 'cache-control')).toBe('no-store');
  });
});

describe('the console assets', () => {
  it('serves a file under assets/ with its content type and a year of immutable caching', async () => {
    const page = (await stack.call('/console/')).text;
    const names = assetNames(page);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      const reply = await stack.call(`/console/assets/${name}`);
      expect(reply.status, name).toBe(200);
      const expected = name.endsWith('.js')
        ? /^text\/javascript/
        : name.endsWith('.css')
          ? /^text\/css/
          : /./;
      expect(header(reply, 'content-type'), name).toMatch(expected);
      expect(header(reply, 'cache-control')).toBe('public, max-age=31536000, immutable');
    }
  });

  it('answers an unknown asset with 404 and the contract error body', async () => {
    const reply = await stack.call('/console/assets/no-such-file.js', { operation: 'getAdminConsole' });
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ error: 'NOT_FOUND', requestId: expect.any(String) });
  });

  it('never leaves the build directory: dot segments, escaped separators and odd names get 404 JSON', async () => {
    for (const path of [
      '/console/assets/../../package.json',
      '/console/assets/../index.html',
      '/console/assets/..%2F..%2Fpackage.json',
      '/console/assets/%2e%2e%2f%2e%2e%2fpackage.json',
      '/console/assets/..',
      '/console/../package.json.js',
      '/console/assets/sub/dir.js',
      '/console/index.html',
      '/console/package.json',
    ]) {
      const reply = await rawPath(stack.api.url, path, stack.ca);
      expect(reply.status, path).toBe(404);
      expect(reply.type, path).toMatch(/^application\/json/);
      expect(JSON.parse(reply.body), path).toMatchObject({ error: 'NOT_FOUND' });
    }
  });

  it('counts console requests against the rate limits, as /docs (only /health is exempt)', async () => {
    const limited = await startStack({ env: { RATE_LIMIT_IP_PER_5MIN: '3' } });
    try {
      const statuses = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await limited.call('/console/')).status);
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await limited.stop();
    }
  });
});

describe('the console under BASE_PATH, and without a build', () => {
  let prod: ApiOverStore;
  let unbuilt: ApiOverStore;
  let emptyDir: string;

  beforeAll(async () => {
    emptyDir = await mkdtemp(join(tmpdir(), 'console-unbuilt-'));
    [prod, unbuilt] = await Promise.all([
      startApiOverStore({ dataDirPrefix: 'console-prod-', wrap: () => ({}), env: { BASE_PATH: '/prod' } }),
      startApiOverStore({
        dataDirPrefix: 'console-unbuilt-api-',
        wrap: () => ({}),
        consoleDir: `${emptyDir}/`,
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([prod?.stop(), unbuilt?.stop()]);
    await rm(emptyDir, { recursive: true, force: true });
  });

  it('serves the page at /prod/console/… with <base href="/prod/console/"> and its settings with basePath /prod', async () => {
    const page = await rawRequest(`${prod.base}/prod/console/clients`, { ca: prod.ca });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<base href="/prod/console/">');
    const config = await rawRequest(`${prod.base}/prod/console/config.json`, { ca: prod.ca });
    expect(JSON.parse(config.body)).toMatchObject({ basePath: '/prod', apiBaseUrl: `${prod.base}/prod` });
    const [asset] = assetNames(page.body);
    expect((await rawRequest(`${prod.base}/prod/console/assets/${asset}`, { ca: prod.ca })).status).toBe(200);
    expect((await rawRequest(`${prod.base}/console/`, { ca: prod.ca })).status).toBe(404);
  });

  it('answers 503 "admin console not built" in the contract error shape, and the API still serves', async () => {
    const reply = await rawRequest(`${unbuilt.base}/console/`, { ca: unbuilt.ca });
    expect(reply.status).toBe(503);
    const body = JSON.parse(reply.body);
    expect(body).toMatchObject({ message: 'admin console not built: run pnpm build' });
    expect(validateResponse('getAdminConsole', 503, body)).toEqual([]);
    expect((await rawRequest(`${unbuilt.base}/health`, { ca: unbuilt.ca })).status).toBe(200);
    expect((await rawRequest(`${unbuilt.base}/console/config.json`, { ca: unbuilt.ca })).status).toBe(200);
  });
});
