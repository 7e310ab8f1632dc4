import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Adapter } from 'oidc-provider';
import type { SignInRoom, SignIns } from '../../ports/sign-ins.ts';
import { RedisOidcAdapter } from './redis-oidc-adapter.ts';
import { type SignInKeys, signInKeys } from './sign-in-keys.ts';
import { type SignInScripts, signInScripts } from './sign-in-scripts.ts';
import { storeCall } from './store-call.ts';

// A reservation is released when the request that creates the interaction is answered; should the
// release never reach Redis, it leaves the index on its own after this long.
const RESERVATION_MS = 30_000;

/**
 * Sign-ins in progress in Redis, seen by every token server that names the same server and key
 * prefix: a sign-in started on one instance continues on any other, and SIGN_IN_CAPACITY bounds the
 * live interactions of the whole deployment (each instance passes its own setting with every
 * reservation: give them all the same). A reservation is one script that drops the entries past
 * their time, counts the rest and adds itself below the capacity, so instances reserving together
 * never exceed it. Entries are scored with each instance's clock: keep them synchronised (NTP).
 */
export class RedisSignIns implements SignIns {
  readonly #client: Redis;
  readonly #keys: SignInKeys;
  readonly #scripts: SignInScripts;
  readonly #capacity: number;
  readonly #now: () => number;

  constructor(options: {
    readonly client: Redis;
    readonly keyPrefix: string;
    readonly capacity: number;
    readonly now?: () => number;
  }) {
    this.#client = options.client;
    this.#keys = signInKeys(options.keyPrefix);
    this.#scripts = signInScripts(options.client);
    this.#capacity = options.capacity;
    this.#now = options.now ?? Date.now;
  }

  adapter(model: string): Adapter {
    return new RedisOidcAdapter({
      model,
      client: this.#client,
      keys: this.#keys,
      scripts: this.#scripts,
      now: this.#now,
    });
  }

  async reserve(): Promise<SignInRoom | undefined> {
    const member = `reservation:${randomUUID()}`;
    const now = this.#now();
    const index = this.#keys.signIns;
    const reserved = await storeCall(() =>
      this.#scripts.reserve(index, now, this.#capacity, member, now + RESERVATION_MS),
    );
    if (reserved !== 1) return undefined;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#client.zrem(index, member).catch(() => {});
      },
    };
  }
}
