import { afterEach, describe, expect, it } from 'vitest';
import type { RateLimit } from '../src/config/config.ts';
import type { RateLimiterFactory } from '../src/ports/rate-limiters.ts';

/** A fresh set of limiters (nothing counted yet) and how to release it. */
export interface OpenedLimiters {
  readonly make: RateLimiterFactory;
  close(): Promise<void>;
}

const FIVE_PER_MINUTE: RateLimit = { points: 5, windowSeconds: 60 };

/** Waits, without a fixed sleep, for `condition` to hold, up to `timeoutMs`. */
async function eventually(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition still false after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The rules every RateLimiter adapter keeps (src/ports/rate-limiters.ts), run against each one:
 * the login lock-out and the token and sign-in limits rely on nothing else.
 */
export function rateLimiterContract(adapter: string, open: () => Promise<OpenedLimiters>): void {
  describe(`RateLimiter contract: ${adapter}`, () => {
    let opened: OpenedLimiters | undefined;
    afterEach(async () => {
      await opened?.close();
      opened = undefined;
    });
    const limiters = async () => {
      opened = await open();
      return opened.make;
    };

    it('admits a key its points in a window, then refuses it with a wait within the window', async () => {
      const limiter = (await limiters())('token-ip', FIVE_PER_MINUTE);
      for (let request = 0; request < 5; request += 1) {
        expect(await limiter.consume('203.0.113.7')).toEqual({ allowed: true });
      }
      const refused = await limiter.consume('203.0.113.7');
      expect(refused.allowed).toBe(false);
      const wait = refused.allowed ? 0 : refused.retryAfterSeconds;
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
    });

    it('counts each key, and each purpose, apart', async () => {
      const make = await limiters();
      const tokens = make('token-ip', { points: 1, windowSeconds: 60 });
      const signIns = make('sign-in-ip', { points: 1, windowSeconds: 60 });
      expect((await tokens.consume('203.0.113.7')).allowed).toBe(true);
      expect((await tokens.consume('203.0.113.7')).allowed).toBe(false);
      expect((await tokens.consume('203.0.113.8')).allowed).toBe(true);
      expect((await signIns.consume('203.0.113.7')).allowed).toBe(true);
    });

    it('check tells a used-up key from one with room, and counts nothing', async () => {
      const limiter = (await limiters())('login-email', { points: 2, windowSeconds: 60 });
      for (let look = 0; look < 5; look += 1)
        expect(await limiter.check('a@example.com')).toEqual({ allowed: true });
      await limiter.record('a@example.com');
      expect((await limiter.check('a@example.com')).allowed).toBe(true);
      await limiter.record('a@example.com');
      const locked = await limiter.check('a@example.com');
      expect(locked.allowed).toBe(false);
      expect(locked.allowed ? 0 : locked.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    });

    it('record: of many events recorded at once, exactly one sees the key become refused', async () => {
      const limiter = (await limiters())('login-email', FIVE_PER_MINUTE);
      const engaged = await Promise.all(Array.from({ length: 15 }, () => limiter.record('a@example.com')));
      expect(engaged.filter(Boolean)).toHaveLength(1);
      expect((await limiter.check('a@example.com')).allowed).toBe(false);
      expect(await limiter.record('a@example.com')).toBe(false);
    });

    it("reset forgets the key's count, and only that key's", async () => {
      const limiter = (await limiters())('login-email', { points: 1, windowSeconds: 60 });
      await limiter.record('a@example.com');
      await limiter.record('b@example.com');
      await limiter.reset('a@example.com');
      expect((await limiter.check('a@example.com')).allowed).toBe(true);
      expect((await limiter.check('b@example.com')).allowed).toBe(false);
      expect(await limiter.record('a@example.com')).toBe(true);
    });

    it('a limit of 0 admits everything and never reports a lock-out', async () => {
      const limiter = (await limiters())('token-client', { points: 0, windowSeconds: 60 });
      for (let request = 0; request < 20; request += 1) {
        expect((await limiter.consume('client')).allowed).toBe(true);
        expect(await limiter.record('client')).toBe(false);
      }
      expect((await limiter.check('client')).allowed).toBe(true);
    });

    it('admits a refused key again once its window has passed', async () => {
      const limiter = (await limiters())('token-ip', { points: 1, windowSeconds: 1 });
      expect((await limiter.consume('203.0.113.7')).allowed).toBe(true);
      // Refused within the window; a machine that stalls past the one-second window between two
      // calls sees the key admitted again instead, so it consumes until it sees the refusal.
      await eventually(async () => !(await limiter.consume('203.0.113.7')).allowed, 60_000);
      await eventually(async () => (await limiter.check('203.0.113.7')).allowed, 60_000);
      expect((await limiter.consume('203.0.113.7')).allowed).toBe(true);
    });
  });
}
