import type { ChainableCommander, Redis } from 'ioredis';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { interactionKeys, type SignInKeys } from './sign-in-keys.ts';
import type { SignInScripts } from './sign-in-scripts.ts';
import { execute, storeCall } from './store-call.ts';

// The models oidc-provider issues under a grant (as its own memory adapter lists them): what
// revokeByGrantId must find.
const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
]);

/** An index key lives at least as long as its longest-lived member. */
function keepFor(transaction: ChainableCommander, key: string, ttlMs: number | undefined): void {
  if (ttlMs === undefined) {
    transaction.persist(key);
    return;
  }
  transaction.pexpire(key, ttlMs, 'NX');
  transaction.pexpire(key, ttlMs, 'GT');
}

/**
 * oidc-provider's adapter for one model of a sign-in, in Redis (the interface of oidc-provider's
 * docs, "Adapter"). Each artefact is a hash expiring with the artefact (expiresIn); an upsert is one
 * MULTI with its indexes (a session's uid, a grant's list of artefacts), or for an interaction one
 * script that also indexes it as open or kept and evicts the oldest open one past SIGN_IN_CAPACITY
 * (../../ports/sign-ins.ts). A failure of Redis rejects with SignInStoreUnavailable.
 */
export class RedisOidcAdapter implements Adapter {
  readonly #model: string;
  readonly #client: Redis;
  readonly #keys: SignInKeys;
  readonly #scripts: SignInScripts;
  readonly #now: () => number;
  readonly #capacity: number;

  constructor(input: {
    readonly model: string;
    readonly client: Redis;
    readonly keys: SignInKeys;
    readonly scripts: SignInScripts;
    readonly now: () => number;
    /** SIGN_IN_CAPACITY: open interactions held at once. */
    readonly capacity: number;
  }) {
    this.#model = input.model;
    this.#client = input.client;
    this.#keys = input.keys;
    this.#scripts = input.scripts;
    this.#now = input.now;
    this.#capacity = input.capacity;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const key = this.#keys.artefact(this.#model, id);
    const ttlMs = expiresIn === undefined ? undefined : expiresIn * 1000;
    if (this.#model === 'Interaction') {
      // oidc-provider gives every interaction one (ttl.Interaction); the indexes expire by it.
      if (ttlMs === undefined) throw new TypeError('an interaction is stored with a lifetime');
      const keys = interactionKeys(this.#keys, id);
      const now = this.#now();
      await storeCall(() =>
        this.#scripts.saveInteraction(keys, JSON.stringify(payload), ttlMs, now, this.#capacity),
      );
      return;
    }
    const transaction = this.#client.multi().del(key).hset(key, 'payload', JSON.stringify(payload));
    if (ttlMs !== undefined) transaction.pexpire(key, ttlMs);
    if (this.#model === 'Session' && typeof payload.uid === 'string') {
      const uidKey = this.#keys.sessionUid(payload.uid);
      if (ttlMs === undefined) transaction.set(uidKey, id);
      else transaction.set(uidKey, id, 'PX', ttlMs);
    }
    if (GRANTABLE.has(this.#model) && typeof payload.grantId === 'string') {
      const grantKey = this.#keys.grant(payload.grantId);
      transaction.rpush(grantKey, key);
      keepFor(transaction, grantKey, ttlMs);
    }
    await execute(transaction);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const stored = await storeCall(() => this.#client.hgetall(this.#keys.artefact(this.#model, id)));
    if (stored.payload === undefined) return undefined;
    const payload = JSON.parse(stored.payload) as AdapterPayload;
    return stored.consumed === undefined ? payload : { ...payload, consumed: Number(stored.consumed) };
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const id = await storeCall(() => this.#client.get(this.#keys.sessionUid(uid)));
    return id === null ? undefined : this.find(id);
  }

  /** The device flow is off: no user codes are issued. */
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }

  async consume(id: string): Promise<void> {
    const atSeconds = Math.floor(this.#now() / 1000);
    await storeCall(() => this.#scripts.consume(this.#keys.artefact(this.#model, id), atSeconds));
  }

  async destroy(id: string): Promise<void> {
    const key = this.#keys.artefact(this.#model, id);
    const transaction = this.#client.multi().del(key);
    if (this.#model === 'Interaction') {
      transaction.zrem(this.#keys.openInteractions, key).zrem(this.#keys.keptInteractions, key);
    }
    await execute(transaction);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await storeCall(() => this.#scripts.revokeGrant(this.#keys.grant(grantId)));
  }
}
