import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConfigError,
  commonServerEnv,
  parseEnv,
  portSchema,
  type RunningServer,
  requireForwardedHttps,
  transportFrom,
  trustedProxyHeaders,
} from '../src/index.ts';
import { rawRequest } from '../src/testing/spawn-service.ts';
import { serveOnLoopback } from './support/serve-on-loopback.ts';

// Behind TRUST_PROXY, X-Forwarded-For and X-Forwarded-Proto are believed only from the proxies'
// own addresses. On loopback the proxy is 127.0.0.1 and a caller reaching the instance's port
// directly connects from 127.0.0.2 (Linux answers for all of 127.0.0.0/8).
const PROXY = '127.0.0.1';
const DIRECT_CALLER = '127.0.0.2';

const schema = commonServerEnv.and(z.object({ PORT: portSchema('PORT', 3000) }));
const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close(100)));
});

/** What the server made of a request: the caller's address and protocol, as Koa sees them. */
async function startBehindProxy(env: Record<string, string>): Promise<string> {
  const transport = transportFrom(parseEnv('test', schema, { TRUST_PROXY: 'true', ...env }));
  if (transport.mode !== 'behind-proxy') throw new Error('expected the behind-proxy transport');
  const app = new Koa({ proxy: true, maxIpsCount: 1 });
  app.use(trustedProxyHeaders(transport.trustedProxies));
  app.use(requireForwardedHttps('/ready'));
  app.use(async (ctx) => {
    ctx.body = { ip: ctx.ip, protocol: ctx.protocol, host: ctx.host };
  });
  return serveOnLoopback(app.callback(), running);
}

const forged = {
  'X-Forwarded-For': '198.51.100.7',
  'X-Forwarded-Proto': 'https',
  'X-Forwarded-Host': 'evil.example',
};

describe('forwarded headers are believed only from TRUSTED_PROXIES', () => {
  it('from a trusted proxy: the address it appended and the protocol it saw', async () => {
    const base = await startBehindProxy({ TRUSTED_PROXIES: PROXY });
    const reply = await rawRequest(`${base}/whoami`, { headers: forged, localAddress: PROXY });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({
      ip: '198.51.100.7',
      protocol: 'https',
      host: 'evil.example',
    });
  });

  it("from any other peer: the socket's address, and a direct plain-HTTP request is refused", async () => {
    const base = await startBehindProxy({ TRUSTED_PROXIES: PROXY });
    const refused = await rawRequest(`${base}/whoami`, { headers: forged, localAddress: DIRECT_CALLER });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('HTTPS only');
    // The probes answer direct callers (the balancer's health checks): there the address shows.
    const probe = await rawRequest(`${base}/ready`, { headers: forged, localAddress: DIRECT_CALLER });
    expect(JSON.parse(probe.body)).toMatchObject({ ip: DIRECT_CALLER, protocol: 'http' });
  });

  it('trusts a CIDR block, and loopback (127.0.0.1 and ::1) when TRUSTED_PROXIES is unset', async () => {
    const block = await startBehindProxy({ TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.2/32' });
    const fromBlock = await rawRequest(`${block}/whoami`, { headers: forged, localAddress: DIRECT_CALLER });
    expect(JSON.parse(fromBlock.body)).toMatchObject({ ip: '198.51.100.7' });
    expect((await rawRequest(`${block}/whoami`, { headers: forged, localAddress: PROXY })).status).toBe(400);

    const loopback = await startBehindProxy({});
    const fromLoopback = await rawRequest(`${loopback}/whoami`, { headers: forged, localAddress: PROXY });
    expect(JSON.parse(fromLoopback.body)).toMatchObject({ ip: '198.51.100.7' });
    expect(
      (await rawRequest(`${loopback}/whoami`, { headers: forged, localAddress: DIRECT_CALLER })).status,
    ).toBe(400);
  });
});

describe('TRUSTED_PROXIES is validated at start-up', () => {
  const problemsOf = (env: Record<string, string>): string => {
    try {
      parseEnv('test', schema, env);
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
      throw error;
    }
    throw new Error('the configuration was accepted');
  };

  it('defaults to loopback behind TRUST_PROXY', () => {
    expect(transportFrom(parseEnv('test', schema, { TRUST_PROXY: 'true' }))).toEqual({
      mode: 'behind-proxy',
      trustedProxies: ['127.0.0.1', '::1'],
    });
  });

  it('accepts IPv4 and IPv6 addresses and CIDR blocks', () => {
    const env = { TRUST_PROXY: 'true', TRUSTED_PROXIES: '10.1.2.3, 192.168.0.0/16,fd00::/8,::1' };
    expect(transportFrom(parseEnv('test', schema, env))).toMatchObject({
      trustedProxies: ['10.1.2.3', '192.168.0.0/16', 'fd00::/8', '::1'],
    });
  });

  it.each([
    ['a host name', 'nginx.internal', /TRUSTED_PROXIES.*"nginx.internal" is not an IP address/],
    ['a prefix too long', '10.0.0.0/33', /TRUSTED_PROXIES.*prefix length of an IPv4 block is 0 to 32/],
    ['an empty entry', '127.0.0.1,,::1', /TRUSTED_PROXIES.*empty entry/],
  ])('refuses %s', (_, value, problem) => {
    expect(problemsOf({ TRUST_PROXY: 'true', TRUSTED_PROXIES: value })).toMatch(problem);
  });

  it('refuses TRUSTED_PROXIES without TRUST_PROXY=true, which would believe nothing', () => {
    expect(problemsOf({ TRUSTED_PROXIES: '127.0.0.1' })).toMatch(/TRUSTED_PROXIES.*set TRUST_PROXY=true/);
  });
});
