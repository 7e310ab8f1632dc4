import { afterEach, describe, expect, inject, it } from 'vitest';
import { type LimitedApi, startLimitedApi, testKeyPrefix } from '../support/limited-api.ts';

// Which address the per-IP limit counts: behind TRUST_PROXY the X-Forwarded-For entry the proxy
// appended (the last), never the entries a caller wrote itself; without it, the header is ignored.
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

  it("without TRUST_PROXY: the connection's own address; X-Forwarded-For is ignored", async () => {
    api = await limited({});
    const via = (forwardedFor: string) => (api as LimitedApi).call({ 'X-Forwarded-For': forwardedFor });
    expect((await via('198.51.100.1')).status).toBe(200);
    expect((await via('198.51.100.2')).status).toBe(200);
    expect((await via('198.51.100.3')).status).toBe(429);
  });
});
