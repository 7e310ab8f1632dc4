import { Redis, type RedisOptions } from 'ioredis';

/** Longest a request waits for Redis before the caller gives up on it (limits decided in this process instead). */
const REDIS_COMMAND_TIMEOUT_MS = 500;

// Start-up waits this long at most for the first connection; after that Redis is out until it answers.
const FIRST_CONNECTION_WAIT_MS = 2000;

// A request must never wait for Redis to come back: no queue of commands while it is disconnected,
// no replay of a command whose connection dropped (its request was answered long ago), a short
// time-out for one that hangs. Reconnection goes on in the background, backing off to one attempt a
// second.
const FAIL_FAST = {
  enableOfflineQueue: false,
  autoResendUnfulfilledCommands: false,
  maxRetriesPerRequest: 0,
  commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  connectTimeout: FIRST_CONNECTION_WAIT_MS,
  retryStrategy: (attempt: number) => Math.min(attempt * 50, 1000),
} satisfies RedisOptions;

// Connected, or the first attempt failed (refused, or closed by whatever answered).
const SETTLING_EVENTS = ['ready', 'error', 'close'] as const;

/**
 * A client of the Redis server at `url` that fails fast, connected when it resolves, or still
 * connecting in the background when Redis did not answer in time: the caller serves either way.
 */
export async function connectRedis(url: string): Promise<Redis> {
  const client = new Redis(url, FAIL_FAST);
  // ioredis reports every failed (re)connection as an 'error' event, and prints it when nobody
  // listens; the servers report an outage once instead (their insured limiters).
  client.on('error', () => {});
  await new Promise<void>((resolve) => {
    const settle = () => {
      clearTimeout(timer);
      for (const event of SETTLING_EVENTS) client.off(event, settle);
      resolve();
    };
    const timer = setTimeout(settle, FIRST_CONNECTION_WAIT_MS);
    for (const event of SETTLING_EVENTS) client.once(event, settle);
  });
  return client;
}
