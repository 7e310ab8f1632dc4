import { describe, expect, it } from 'vitest';
import { loadCatalogApiConfig } from '../../src/config/config.ts';

describe("spec 8's limits are the defaults", () => {
  it('with no RATE_LIMIT_* set, the API throttles at 50 requests/second sustained, 100 in a burst, and 1,000 per address in a rolling 5 minutes', () => {
    expect(loadCatalogApiConfig({ DATA_DIR: '/tmp/catalog-config-test' }).rateLimits).toEqual({
      rps: 50,
      burst: 100,
      ipPer5Min: 1000,
      ipWindowMs: 5 * 60 * 1000,
    });
  });
});
