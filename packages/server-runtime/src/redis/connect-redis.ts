import { type Command, Redis, type RedisOptions } from 'ioredis';

/** Longest a request waits for Redis before the caller gives up on it (limits decided in this process instead). */
const REDIS_COMMAND_TIMEOUT_MS = 500;

// Start-up waits this long at most for the first connection; after that Redis is out until it answers.
const FIRST_CONNECTION_WAIT_MS = 2000;

// A request must never wait for Redis to come back: no queue of commands while it is disconnected,
// no replay of a command whose connection dropped (its request was answered long ago), a short
// time-out for one that hangs (FailFastRedis, not ioredis's commandTimeout). Reconnection goes on
// in the background, backing off to one attempt a second.
const FAIL_FAST = {
  enableOfflineQueue: false,
  autoResendUnfulfilledCommands: false,
  maxRetriesPerRequest: 0,
  connectTimeout: FIRST_CONNECTION_WAIT_MS,
  retryStrategy: (attempt: number) => Math.min(attempt * 50, 1000),
} satisfies RedisOptions;

/** A command Redis did not answer within REDIS_COMMAND_TIMEOUT_MS. */
export class RedisCommandTimeoutError extends Error {
  constructor(command: string) {
    super(`Redis did not answer ${command} within ${REDIS_COMMAND_TIMEOUT_MS} ms`);
    this.name = 'RedisCommandTimeoutError';
  }
}

/**
 * ioredis's commandTimeout fires in the event loop's timers phase, before the poll phase reads the
 * socket: when this process is busy for longer than the time-out (a burst of requests on a loaded
 * machine), an answer Redis sent within a millisecond already waits in the socket and the command
 * still times out, and the instance takes Redis for out (the limits then decided alone, a false
 * warning, the fallback metric an operator alerts on). The time-out here gives the poll phase one
 * turn (setImmediate runs after it) before giving a command up, so it measures Redis, not this
 * process's own stalls.
 */
class FailFastRedis extends Redis {
  override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
    const sent = super.sendCommand(command, stream);
    if (!command.isSettled) {
      const timer = setTimeout(() => {
        setImmediate(() => {
          if (!command.isSettled) command.reject(new RedisCommandTimeoutError(command.name));
        });
      }, REDIS_COMMAND_TIMEOUT_MS);
      const settled = () => clearTimeout(timer);
      command.promise.then(settled, settled);
    }
    return sent;
  }
}

// Connected, or the first attempt failed (refused, or closed by whatever answered).
const SETTLING_EVENTS = ['ready', 'error', 'close'] as const;

/**
 * A client of the Redis server at `url` that fails fast, connected when it resolves, or still
 * connecting in the background when Redis did not answer in time: the caller serves either way.
 */
export async function connectRedis(url: string): Promise<Redis> {
  const client = new FailFastRedis(url, FAIL_FAST);
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
