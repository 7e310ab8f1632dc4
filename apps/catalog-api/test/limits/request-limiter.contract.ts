import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalogApiConfig, type RateLimitConfig } from '../../src/config/config.ts';
import type { LimitVerdict, RequestLimiter } from '../../src/limits/request-limiter.ts';
import type { ApiLimiter } from '../../src/metrics/catalog-metrics.ts';

/** A limiter with these limits, reading the time from `now`. */
export type RequestLimiterFactory = (limits: RateLimitConfig, now: () => number) => Promise<RequestLimiter>;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const WINDOW = 5 * MINUTE;
// On a slice boundary of the 5-minute window (slices of 10 s), so expected Retry-Afters are round.
const START = 1_000_000;

const OFF: RateLimitConfig = { rps: 0, burst: 0, ipPer5Min: 0, ipWindowMs: WINDOW };
/** What the API enforces when no RATE_LIMIT_* is set: the limits counted below must be spec 8's. */
const DEFAULTS = loadCatalogApiConfig({ DATA_DIR: '/tmp/catalog-limits-contract' }).rateLimits;

/** The rules every RequestLimiter keeps (spec 8), whatever holds its counts. */
export function requestLimiterContract(adapter: string, factory: RequestLimiterFactory): void {
  describe(`RequestLimiter contract: ${adapter}`, () => {
    const opened: RequestLimiter[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((limiter) => limiter.close()));
    });

    async function open(limits: Partial<RateLimitConfig>) {
      const clock = { now: START };
      const limiter = await factory({ ...OFF, ...limits }, () => clock.now);
      opened.push(limiter);
      const admitted = async (count: number, address = '203.0.113.7') => {
        let passed = 0;
        for (let i = 0; i < count; i += 1) if ((await limiter.admit(address)).admitted) passed += 1;
        return passed;
      };
      return { clock, limiter, admitted };
    }

    const refusal = (limiter: ApiLimiter, retryAfterMs: number): LimitVerdict => ({
      admitted: false,
      limiter,
      retryAfterMs,
    });

    it('admits RATE_LIMIT_IP_PER_5MIN requests from an address, then refuses it for the rest of its window', async () => {
      const { clock, limiter, admitted } = await open({ ipPer5Min: 10 });
      expect(await admitted(10)).toBe(10);
      expect(await limiter.admit('203.0.113.7')).toEqual(refusal('ip_window', WINDOW));
      clock.now = START + WINDOW - 1;
      expect(await limiter.admit('203.0.113.7')).toEqual(refusal('ip_window', 1));
      clock.now = START + WINDOW;
      expect(await admitted(10)).toBe(10);
    });

    it('counts a rolling window, not fixed ones: no twice the limit across a boundary', async () => {
      const { clock, admitted } = await open({ ipPer5Min: 10 });
      clock.now = START + 4 * MINUTE + 50 * SECOND;
      expect(await admitted(6)).toBe(6);
      clock.now = START + 5 * MINUTE + 10 * SECOND;
      expect(await admitted(6)).toBe(4);
    });

    it('gives a blocked address a Retry-After of when enough of its oldest requests leave the window', async () => {
      const { clock, limiter, admitted } = await open({ ipPer5Min: 4 });
      expect(await admitted(2)).toBe(2);
      clock.now = START + 50 * SECOND;
      expect(await admitted(2)).toBe(2);
      clock.now = START + 100 * SECOND;
      // The two oldest leave at START + 5 min, and then there is room again.
      expect(await limiter.admit('203.0.113.7')).toEqual(refusal('ip_window', WINDOW - 100 * SECOND));
      clock.now = START + WINDOW;
      expect(await admitted(3)).toBe(2);
    });

    it('does not count refused requests: retrying while blocked never keeps the block up', async () => {
      const { clock, admitted } = await open({ ipPer5Min: 3 });
      expect(await admitted(3)).toBe(3);
      for (let second = 1; second < 300; second += 30) {
        clock.now = START + second * SECOND;
        expect(await admitted(5)).toBe(0);
      }
      clock.now = START + WINDOW;
      expect(await admitted(3)).toBe(3);
    });

    it('counts each address on its own', async () => {
      const { limiter, admitted } = await open({ ipPer5Min: 3 });
      expect(await admitted(4)).toBe(3);
      expect((await limiter.admit('198.51.100.1')).admitted).toBe(true);
      expect((await limiter.admit('2001:db8::1')).admitted).toBe(true);
    });

    it('admits RATE_LIMIT_RPS a second whoever calls, then refuses until the second is over', async () => {
      const { clock, limiter } = await open({ rps: 5, burst: 5 });
      for (let i = 0; i < 5; i += 1) expect((await limiter.admit(`198.51.100.${i}`)).admitted).toBe(true);
      expect(await limiter.admit('198.51.100.9')).toEqual(refusal('gateway_throttle', SECOND));
      clock.now = START + 400;
      expect(await limiter.admit('198.51.100.9')).toEqual(refusal('gateway_throttle', 600));
      clock.now = START + SECOND;
      expect((await limiter.admit('198.51.100.9')).admitted).toBe(true);
    });

    it("tells a request refused by the throttle to come back within a second, even when its clock reads behind the window's start (an instance whose request waited for its turn)", async () => {
      const { clock, limiter } = await open({ rps: 1, burst: 1 });
      clock.now = START + 40;
      expect((await limiter.admit('198.51.100.1')).admitted).toBe(true);
      clock.now = START;
      expect(await limiter.admit('198.51.100.2')).toEqual(refusal('gateway_throttle', SECOND));
    });

    it('lets RATE_LIMIT_BURST − RATE_LIMIT_RPS more through once the sustained rate is used, refilled a minute later', async () => {
      const { clock, admitted } = await open({ rps: 2, burst: 5 });
      expect(await admitted(6)).toBe(5);
      clock.now = START + SECOND;
      expect(await admitted(3)).toBe(2);
      clock.now = START + MINUTE;
      expect(await admitted(6)).toBe(5);
    });

    it('counts a request the throttle refused against its address too: every request of an address counts (spec 8)', async () => {
      const { clock, limiter, admitted } = await open({ rps: 1, burst: 1, ipPer5Min: 3 });
      expect(await admitted(1)).toBe(1);
      expect(await limiter.admit('203.0.113.7')).toEqual(refusal('gateway_throttle', SECOND));
      clock.now = START + SECOND;
      expect(await admitted(1)).toBe(1);
      clock.now = START + 2 * SECOND;
      expect(await limiter.admit('203.0.113.7')).toEqual(refusal('ip_window', WINDOW - 2 * SECOND));
    });

    it('refuses a blocked address before the throttle, so it spends none of the shared budget', async () => {
      const { limiter } = await open({ rps: 2, burst: 2, ipPer5Min: 1 });
      expect((await limiter.admit('203.0.113.7')).admitted).toBe(true);
      expect((await limiter.admit('203.0.113.7')).admitted).toBe(false);
      expect((await limiter.admit('203.0.113.7')).admitted).toBe(false);
      expect((await limiter.admit('198.51.100.1')).admitted).toBe(true);
      expect(await limiter.admit('198.51.100.2')).toEqual(refusal('gateway_throttle', SECOND));
    });

    it('with the default limits, 100 requests get through at once, then exactly 50 in each saturated second: 60 asked a second for 5 seconds, 10 refused in each', async () => {
      const { clock, admitted } = await open(DEFAULTS);
      const fromMany = async (count: number) => {
        let passed = 0;
        for (let i = 0; i < count; i += 1) passed += await admitted(1, `198.51.100.${i % 200}`);
        return passed;
      };
      expect(await fromMany(150)).toBe(100);
      for (let second = 1; second <= 5; second += 1) {
        clock.now = START + second * SECOND;
        expect(await fromMany(60)).toBe(50);
      }
    });

    it('with the default limits and the burst spent, 51 requests in a second get one refusal: the sustained rate is 50, not 51', async () => {
      const { clock, limiter, admitted } = await open(DEFAULTS);
      expect(await admitted(100, '198.51.100.1')).toBe(100);
      clock.now = START + SECOND;
      expect(await admitted(50, '198.51.100.2')).toBe(50);
      expect(await limiter.admit('198.51.100.3')).toEqual(refusal('gateway_throttle', SECOND));
      // A minute after it was spent, the burst is there again.
      clock.now = START + MINUTE;
      expect(await admitted(101, '198.51.100.4')).toBe(100);
    });

    it('with the default limits, an address gets 1,000 requests in 5 minutes, then is refused until its oldest requests leave the window, retrying or not', async () => {
      const { clock, limiter, admitted } = await open(DEFAULTS);
      // Ten a second, well under the throttle: only the address's window can refuse.
      for (let second = 0; second < 100; second += 1) {
        clock.now = START + second * SECOND;
        expect(await admitted(10)).toBe(10);
      }
      clock.now = START + 100 * SECOND;
      // Its first 10 s (100 requests) leave the window 5 minutes after they began.
      expect(await limiter.admit('203.0.113.7')).toEqual(refusal('ip_window', WINDOW - 100 * SECOND));
      expect(await admitted(1, '198.51.100.9')).toBe(1);
      for (let second = 100; second < 300; second += 20) {
        clock.now = START + second * SECOND;
        expect(await admitted(5)).toBe(0);
      }
      clock.now = START + WINDOW - 1;
      expect(await admitted(1)).toBe(0);
      clock.now = START + WINDOW;
      expect(await admitted(101)).toBe(100);
    });

    it('admits everything when both limits are off', async () => {
      const { admitted } = await open({});
      expect(await admitted(50)).toBe(50);
    });
  });
}
