import { Writable } from 'node:stream';
import Koa from 'koa';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, requestContext } from '../src/index.ts';
import { redactUrl } from '../src/logging/redact-url.ts';
import { rawRequest } from '../src/testing/spawn-service.ts';
import { serveOnLoopback } from './support/serve-on-loopback.ts';

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close(100)));
});

describe('credentials in query strings never reach the request log (issue 13)', () => {
  it('redacts every credential parameter of a logged URL and keeps the rest as sent', () => {
    expect(
      redactUrl(
        '/oauth2/token?grant_type=client_credentials&client_secret=s3cr3t&scope=crm-api%2Fproducts.read',
      ),
    ).toBe(
      '/oauth2/token?grant_type=client_credentials&client_secret=[redacted]&scope=crm-api%2Fproducts.read',
    );
    for (const name of [
      'access_token',
      'refresh_token',
      'code',
      'code_verifier',
      'id_token_hint',
      'password',
      'token',
      'client_assertion',
    ]) {
      expect(redactUrl(`/x?q=shoes&${name}=VALUE`)).toBe(`/x?q=shoes&${name}=[redacted]`);
    }
  });

  it('matches parameter names however they are cased or percent-encoded', () => {
    expect(redactUrl('/x?Client_Secret=VALUE')).toBe('/x?Client_Secret=[redacted]');
    expect(redactUrl('/x?client%5Fsecret=VALUE')).toBe('/x?client%5Fsecret=[redacted]');
    expect(redactUrl('/x?access_token=A&access_token=B')).toBe(
      '/x?access_token=[redacted]&access_token=[redacted]',
    );
  });

  it('leaves URLs without credentials untouched', () => {
    expect(redactUrl('/products/search?q=code+red&size=10')).toBe('/products/search?q=code+red&size=10');
    expect(redactUrl('/health')).toBe('/health');
  });

  it('writes the access-log line of a real request with the secret and the token redacted', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const app = new Koa();
    app.use(requestContext(pino(sink)));
    app.use(async (ctx) => {
      ctx.body = { ok: true };
    });
    const base = await serveOnLoopback(app.callback(), running);
    await rawRequest(`${base}/oauth2/token?client_secret=SECRET-VALUE-1`, { method: 'POST' });
    await rawRequest(`${base}/products/search?q=a&access_token=TOKEN-VALUE-2`);
    const log = lines.join('\n');
    expect(lines).toHaveLength(2);
    expect(log).not.toContain('SECRET-VALUE-1');
    expect(log).not.toContain('TOKEN-VALUE-2');
    expect(JSON.parse(lines[0] ?? '{}').url).toBe('/oauth2/token?client_secret=[redacted]');
    expect(JSON.parse(lines[1] ?? '{}').url).toBe('/products/search?q=a&access_token=[redacted]');
  });
});
