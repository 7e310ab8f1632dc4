// Vitest global set-up for the packages whose tests use Redis: a key prefix per run on the server
// TEST_REDIS_URL names (default: the one the project's machines run, decisions.md Scale-out), its
// keys deleted when the run ends. An unreachable server fails the run with one line saying how to
// provide one: the Redis tests are never silently skipped.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export const DEFAULT_TEST_REDIS_URL = 'redis://127.0.0.1:6379';

function client(url) {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 3000,
  });
  // The socket's error (ECONNREFUSED…) says more than the "Connection is closed." connect() rejects with.
  let last;
  redis.on('error', (error) => {
    last = error;
  });
  return { redis, lastError: () => last };
}

/** @param {import('vitest/node').TestProject} project */
export default async function setup(project) {
  // biome-ignore lint/style/noProcessEnv: this module is the packages' test configuration.
  const url = process.env.TEST_REDIS_URL || DEFAULT_TEST_REDIS_URL;
  if (!/^rediss?:\/\//.test(url)) throw new Error(`TEST_REDIS_URL must be a redis:// URL, not "${url}"`);
  const probe = client(url);
  try {
    await probe.redis.connect();
    await probe.redis.ping();
  } catch (error) {
    const reason = (probe.lastError() ?? error).message;
    throw new Error(
      `Redis is not reachable at ${url} (${reason}): these tests need a Redis 7 server; start one or set TEST_REDIS_URL=redis://host:port`,
    );
  } finally {
    probe.redis.disconnect();
  }
  const prefix = `catalog-test:${process.pid}-${randomBytes(4).toString('hex')}:`;
  project.provide('redisUrl', url);
  project.provide('redisRunPrefix', prefix);
  return async () => {
    const cleaner = client(url).redis;
    await cleaner.connect();
    let cursor = '0';
    do {
      const [next, keys] = await cleaner.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await cleaner.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
    cleaner.disconnect();
  };
}

/** The path of this module, for a package's `globalSetup`. */
export const REDIS_RUN_PREFIX_SETUP = new URL(import.meta.url).pathname;
