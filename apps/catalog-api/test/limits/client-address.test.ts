import { afterEach, describe, expect, inject, it } from 'vitest';
import { type LimitedApi, startLimitedApi, testKeyPrefix } from '../support/limited-api.ts';

// Which address the per-IP limit counts: behind TRUST_PROXY the X-Forwarded-For entry the proxy
// appended (the last), never the entries a caller wrote itself; without it, the header is ignored.
// On loopback the proxy connects from 127.0.0.1, a caller going around it from 127.0.0.2.
const PROXY = '127.0.0.1';
const DIRECT_CALLER = '127.0.0.2';

let api: LimitedApi | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
});

const limited = (env: Record<string, string>) =>
  startLimitedApi({
    REDIS_URL: inject('redisUrl'),
    REDIS_KEY_PREFIX: testKeyPrefix(),
    RATE_LIMIT_IP_PER_5MIN: '2',
    ...env,
  });

describe('the address the per-IP limit counts', () => {
  it('behind TRUST_PROXY=true: the X-Forwarded-For entry the proxy appended, whatever the caller put before it', async () => {
    api = await limited({ TRUST_PROXY: 'true' });
    const via = (forwardedFor: string) =>
      (api as LimitedApi).call({ 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': forwardedFor });
    expect((await via('10.0.0.1, 198.51.100.7')).status).toBe(200);
    expect((await via('10.0.0.2, 198.51.100.7')).status).toBe(200);
    expect((await via('198.51.100.7')).status).toBe(429);
    expect((await via('10.0.0.3, 198.51.100.7')).status).toBe(429);
    expect((await via('198.51.100.7, 198.51.100.8')).status).toBe(200);
  });

  it('behind TRUST_PROXY=true: a caller that is not one of TRUSTED_PROXIES cannot write the address (a direct plain-HTTP request, refused)', async () => {
    api = await limited({ TRUST_PROXY: 'true', TRUSTED_PROXIES: PROXY });
    const forged = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '198.51.100.7' };
    // Reaching the instance's port directly, past the proxy: neither dodging nor spending a window.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await (api as LimitedApi).call(forged, DIRECT_CALLER)).status).toBe(400);
    }
    // 198.51.100.7's window is whole: the proxy's two requests for it pass, the third is limited.
    expect((await (api as LimitedApi).call(forged, PROXY)).status).toBe(200);
    expect((await (api as LimitedApi).call(forged, PROXY)).status).toBe(200);
    expect((await (api as LimitedApi).call(forged, PROXY)).status).toBe(429);
  });

  it("without TRUST_PROXY: the connection's own address; X-Forwarded-For is ignored", async () => {
    api = await limited({});
    const via = (forwardedFor: string) => (api as LimitedApi).call({ 'X-Forwarded-For': forwardedFor });
    expect((await via('198.51.100.1')).status).toBe(200);
    expect((await via('198.51.100.2')).status).toBe(200);
    expect((await via('198.51.100.3')).status).toBe(429);
  });
});
