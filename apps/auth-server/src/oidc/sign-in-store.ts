const INTERACTION_KEY = 'Interaction:';
const SWEEP_EVERY_MS = 1000;

interface Entry {
  readonly value: unknown;
  /** Epoch ms; Infinity for an entry stored without a lifetime. */
  readonly expiresAt: number;
}

/**
 * The storage behind oidc-provider's memory adapter (same get/set/delete contract as its LRU), for
 * sign-ins in progress: interactions, sessions, grants, authorization codes. Unlike the LRU, an
 * entry leaves only when it expires or the provider deletes it, so nobody's requests can evict
 * someone else's sign-in. Memory is bounded at the door instead: a new sign-in (an interaction, the
 * only entry an unauthenticated caller can create) must first reserve room, and none is given past
 * `capacity` live interactions.
 */
export class SignInStore {
  readonly #entries = new Map<string, Entry>();
  readonly #capacity: number;
  readonly #now: () => number;
  #interactions = 0;
  #reserved = 0;
  #lastSweep = 0;

  constructor(options: { readonly capacity: number; readonly now?: () => number }) {
    this.#capacity = options.capacity;
    this.#now = options.now ?? Date.now;
  }

  get(key: string): unknown {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: unknown, options?: { readonly maxAge?: number }): void {
    const now = this.#now();
    if (now - this.#lastSweep >= SWEEP_EVERY_MS) this.#sweep(now);
    if (!this.#entries.has(key) && key.startsWith(INTERACTION_KEY)) this.#interactions += 1;
    const maxAge = options?.maxAge;
    this.#entries.set(key, {
      value,
      expiresAt: maxAge === undefined ? Number.POSITIVE_INFINITY : now + maxAge,
    });
  }

  delete(key: string): void {
    if (this.#entries.delete(key) && key.startsWith(INTERACTION_KEY)) this.#interactions -= 1;
  }

  /**
   * Room for one new sign-in, held until `release` is called (when the request that creates it has
   * been answered, by which time its interaction is stored); undefined when the store is full.
   */
  reserveSignIn(): { release(): void } | undefined {
    const now = this.#now();
    if (this.#interactions + this.#reserved >= this.#capacity && now - this.#lastSweep >= SWEEP_EVERY_MS) {
      this.#sweep(now);
    }
    if (this.#interactions + this.#reserved >= this.#capacity) return undefined;
    this.#reserved += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#reserved -= 1;
      },
    };
  }

  #sweep(now: number): void {
    this.#lastSweep = now;
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt <= now) this.delete(key);
    }
  }
}
