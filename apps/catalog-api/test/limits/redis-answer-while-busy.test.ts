// The 500 ms within which Redis must answer is Redis's time, not this process's: an instance busy
// past it (a burst of requests on a loaded machine) must still take the answer Redis gave at once,
// or it declares an outage Redis never had, warns of it, counts its requests as decided alone and
// admits up to N times the limits across N instances meanwhile.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { connectRedis, RedisCommandTimeoutError } from '@catalog/server-runtime';
import { pino } from 'pino';
import { describe, expect, inject, it } from 'vitest';
import type { RateLimitConfig } from '../../src/config/config.ts';
import { InsuredRequestLimiter } from '../../src/limits/insured-request-limiter.ts';
import { MemoryRequestLimiter } from '../../src/limits/memory/memory-request-limiter.ts';
import { RedisRequestLimiter } from '../../src/limits/redis/redis-request-limiter.ts';
import { testKeyPrefix } from '../support/limited-api.ts';

/** Twice the command time-out: a stall the time-out's timer is certainly due after. */
const BUSY_MS = 1_000;

/**
 * A thread with a connection of its own to Redis that sends PING when told (`go`) and says when
 * Redis has answered (`answered`), while this thread is busy and reads nothing. Redis answers
 * commands in the order they arrive, so once it has answered that PING, it has answered every
 * command this thread sent before telling it to go.
 */
const PINGER = `
const { workerData, parentPort } = require('node:worker_threads');
const { connect } = require('node:net');
const [go, answered] = [0, 1];
const flags = workerData.flags;
const socket = connect(workerData.port, workerData.host, () => {
  parentPort.postMessage('connected');
  Atomics.wait(flags, go, 0);
  socket.on('data', () => {
    Atomics.store(flags, answered, 1);
    Atomics.notify(flags, answered);
    socket.destroy();
  });
  socket.write('PING\\r\\n');
});
`;

async function startPinger(url: string) {
  const flags = new Int32Array(new SharedArrayBuffer(8));
  const { hostname, port } = new URL(url);
  const worker = new Worker(PINGER, {
    eval: true,
    workerData: { flags, host: hostname, port: Number(port || 6379) },
  });
  await once(worker, 'message');
  return {
    /** Blocks this thread until Redis has answered the PING sent now (at most a minute). */
    pingAndWait(): void {
      Atomics.store(flags, 0, 1);
      Atomics.notify(flags, 0);
      if (Atomics.wait(flags, 1, 0, 60_000) === 'timed-out') throw new Error('Redis did not answer PING');
    },
    stop: () => worker.terminate(),
  };
}

describe('the shared limits on an instance busy past the Redis command time-out', () => {
  it('takes the answer Redis gave while the instance was busy: no outage warned of, no request decided alone', async () => {
    const url = inject('redisUrl');
    const limits: RateLimitConfig = { rps: 5, burst: 10, ipPer5Min: 4, ipWindowMs: 300_000 };
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
    let fallbacks = 0;
    const limiter = new InsuredRequestLimiter({
      shared: new RedisRequestLimiter({
        client: await connectRedis(url),
        keyPrefix: testKeyPrefix(),
        limits,
      }),
      insurance: new MemoryRequestLimiter(limits),
      logger,
      onFallback: () => {
        fallbacks += 1;
      },
    });
    try {
      // Connected, and the script known to Redis: the next request is one EVALSHA, written at once.
      expect(await limiter.admit('198.51.100.1')).toEqual({ admitted: true });
      const pinger = await startPinger(url);
      const decided = limiter.admit('203.0.113.7');
      const busySince = Date.now();
      // Our answer is in this process's socket once Redis has answered the PING sent after it.
      pinger.pingAndWait();
      while (Date.now() - busySince < BUSY_MS) {
        // Busy, as an event loop serving a burst is: no I/O is read meanwhile.
      }
      await pinger.stop();
      expect(await decided).toEqual({ admitted: true });
      expect(fallbacks).toBe(0);
      expect(warnings).toEqual([]);
    } finally {
      await limiter.close();
    }
  });

  it('still gives up on a command Redis does not answer, after the time-out', async () => {
    const client = await connectRedis(inject('redisUrl'));
    try {
      // A blocking pop holds the connection: Redis answers nothing sent after it on that connection.
      const held = client.blpop(`${testKeyPrefix()}never-pushed`, 0).catch((error: unknown) => error);
      const ping = await client.ping().catch((error: unknown) => error);
      expect(ping).toBeInstanceOf(RedisCommandTimeoutError);
      expect(await held).toBeInstanceOf(RedisCommandTimeoutError);
    } finally {
      client.disconnect();
    }
  });
});
