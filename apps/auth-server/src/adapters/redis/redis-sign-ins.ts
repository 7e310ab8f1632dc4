import type { Redis } from 'ioredis';
import type { Adapter } from 'oidc-provider';
import type { KeptSignIn, SignIns } from '../../ports/sign-ins.ts';
import { RedisOidcAdapter } from './redis-oidc-adapter.ts';
import { interactionKeys, type SignInKeys, signInKeys } from './sign-in-keys.ts';
import { type SignInScripts, signInScripts } from './sign-in-scripts.ts';
import { storeCall } from './store-call.ts';

/**
 * Sign-ins in progress in Redis, seen by every token server that names the same server and key
 * prefix: a sign-in started on one instance continues on any other, and SIGN_IN_CAPACITY bounds the
 * open and the kept interactions of the whole deployment (../../ports/sign-ins.ts; each instance
 * passes its own setting with every call: give them all the same). Each bound is one script that
 * counts and adds at once, so instances acting together never exceed it. Entries are scored with
 * each instance's clock: keep them synchronised (NTP).
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
      capacity: this.#capacity,
    });
  }

  async keep(uid: string): Promise<KeptSignIn | 'full' | 'gone'> {
    const keys = interactionKeys(this.#keys, uid);
    const kept = await storeCall(() => this.#scripts.keepInteraction(keys, this.#now(), this.#capacity));
    if (kept === -1) return 'gone';
    if (kept === 0) return 'full';
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        await storeCall(() => this.#scripts.releaseInteraction(keys, this.#capacity));
      },
    };
  }
}
