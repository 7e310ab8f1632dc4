import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureLocalTls,
  listen,
  type RunningServer,
  securityHeaders,
  type TlsMaterial,
} from '../src/index.ts';
import { rawRequest } from '../src/testing/spawn-service.ts';

let dataDir: string;
let tls: TlsMaterial;
const running: RunningServer[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'server-runtime-headers-'));
  tls = await ensureLocalTls(dataDir);
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close(100)));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** A page written to the raw response, as oidc-provider writes its own pages. */
function appWithRawPage(proxy: boolean): Koa {
  const app = new Koa({ proxy });
  app.use(securityHeaders());
  app.use(async (ctx) => {
    ctx.respond = false;
    ctx.res.setHeader('Content-Type', 'text/html; charset=utf-8');
    ctx.res.end('<!doctype html><form method="post"><button>Sign out</button></form>');
  });
  return app;
}

async function start(app: Koa, transport: 'tls' | 'plain'): Promise<string> {
  const server = await listen({
    handler: app.callback(),
    host: '127.0.0.1',
    port: 0,
    tls: transport === 'tls' ? tls : null,
    portVariable: 'PORT',
  });
  running.push(server);
  return transport === 'tls' ? `https://localhost:${server.port}` : `http://127.0.0.1:${server.port}`;
}

describe('security headers on every response (issue 13)', () => {
  it('sends nosniff, frame denial, a framing-proof CSP and one-year HSTS over TLS, even on pages written to the raw response', async () => {
    const url = await start(appWithRawPage(false), 'tls');
    const { headers } = await rawRequest(`${url}/logout`, { ca: tls.ca ?? '' });
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('sends no HSTS on plain HTTP that no trusted proxy vouches for', async () => {
    const url = await start(appWithRawPage(false), 'plain');
    const { headers } = await rawRequest(url, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(headers['strict-transport-security']).toBeUndefined();
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends HSTS behind a trusted proxy only when the proxy says the caller used HTTPS', async () => {
    const url = await start(appWithRawPage(true), 'plain');
    const overHttps = await rawRequest(url, { headers: { 'X-Forwarded-Proto': 'https' } });
    const overHttp = await rawRequest(url, { headers: { 'X-Forwarded-Proto': 'http' } });
    expect(overHttps.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(overHttp.headers['strict-transport-security']).toBeUndefined();
  });

  it('lets a route replace the page policy with its own', async () => {
    const app = new Koa();
    app.use(securityHeaders());
    app.use(async (ctx) => {
      ctx.set('Content-Security-Policy', "default-src 'self'; frame-ancestors 'none'");
      ctx.body = 'docs';
    });
    const url = await start(app, 'tls');
    const { headers } = await rawRequest(url, { ca: tls.ca ?? '' });
    expect(headers['content-security-policy']).toBe("default-src 'self'; frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
  });
});
