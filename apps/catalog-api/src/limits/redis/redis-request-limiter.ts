import type { Redis } from 'ioredis';
import type { RateLimitConfig } from '../../config/config.ts';
import { BURST_WINDOW_MS, GATEWAY_WINDOW_MS, WINDOW_SLICES } from '../limit-rules.ts';
import type { LimitVerdict, RequestLimiter } from '../request-limiter.ts';
import { ADMIT_REQUEST_SCRIPT } from './admit-request-script.ts';

const COMMAND = 'catalogAdmitRequest';

type AdmitCommand = (ipKey: string, gatewayKey: string, ...args: number[]) => Promise<[number, number]>;

/**
 * The limits in Redis, shared by every API instance that names the same server and key prefix:
 * one EVALSHA per request (ioredis sends the script itself once, when Redis does not know it yet).
 * Each instance passes its own configured limits with every call: give them all the same.
 * A failure (Redis down, too slow) rejects; InsuredRequestLimiter decides what happens then.
 */
export class RedisRequestLimiter implements RequestLimiter {
  readonly #client: Redis;
  readonly #admit: AdmitCommand;
  readonly #keyPrefix: string;
  readonly #limits: RateLimitConfig;
  readonly #now: () => number;

  /** Takes over `client`: close() disconnects it. */
  constructor(options: {
    readonly client: Redis;
    readonly keyPrefix: string;
    readonly limits: RateLimitConfig;
    readonly now?: () => number;
  }) {
    this.#client = options.client;
    this.#client.defineCommand(COMMAND, { numberOfKeys: 2, lua: ADMIT_REQUEST_SCRIPT });
    const defined = (this.#client as unknown as Record<typeof COMMAND, AdmitCommand>)[COMMAND];
    this.#admit = defined.bind(this.#client);
    this.#keyPrefix = `${options.keyPrefix}limits:`;
    this.#limits = options.limits;
    this.#now = options.now ?? Date.now;
  }

  async admit(address: string): Promise<LimitVerdict> {
    const { ipPer5Min, ipWindowMs, rps, burst } = this.#limits;
    const [outcome, retryAfterMs] = await this.#admit(
      `${this.#keyPrefix}ip:${address}`,
      `${this.#keyPrefix}gateway`,
      Math.floor(this.#now()),
      ipPer5Min,
      ipWindowMs,
      WINDOW_SLICES,
      rps,
      Math.max(0, burst - rps),
      GATEWAY_WINDOW_MS,
      BURST_WINDOW_MS,
    );
    if (outcome === 0) return { admitted: true };
    return { admitted: false, limiter: outcome === 1 ? 'ip_window' : 'gateway_throttle', retryAfterMs };
  }

  async close(): Promise<void> {
    this.#client.disconnect();
  }
}
