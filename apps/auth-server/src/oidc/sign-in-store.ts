const INTERACTION_KEY = 'Interaction:';
const SWEEP_EVERY_MS = 1000;

interface Entry {
  readonly value: unknown;
  /** Epoch ms; Infinity for an entry stored without a lifetime. */
  readonly expiresAt: number;
}

/**
 * The storage behind oidc-provider's memory adapter (same get/set/delete contract as its LRU), for
 * sign-ins in progress: interactions, sessions, grants, authorization codes. Anyone can create an
 * interaction, so those are bounded as ../ports/sign-ins.ts describes: at most `capacity` open ones
 * (a new one evicts the oldest) and at most `capacity` kept ones (never evicted). Everything else
 * leaves only when it expires or the provider deletes it; it exists only once a sign-in succeeded.
 */
export class SignInStore {
  readonly #entries = new Map<string, Entry>();
  readonly #capacity: number;
  readonly #now: () => number;
  /** Open interactions' keys, oldest first (a Set iterates in insertion order). */
  readonly #open = new Set<string>();
  readonly #kept = new Set<string>();
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
    const maxAge = options?.maxAge;
    this.#entries.set(key, {
      value,
      expiresAt: maxAge === undefined ? Number.POSITIVE_INFINITY : now + maxAge,
    });
    if (key.startsWith(INTERACTION_KEY) && !this.#kept.has(key) && !this.#open.has(key)) this.#addOpen(key);
  }

  delete(key: string): void {
    this.#entries.delete(key);
    this.#open.delete(key);
    this.#kept.delete(key);
  }

  /** See SignIns.keep. */
  keepInteraction(uid: string): { release(): void } | 'full' | 'gone' {
    const key = `${INTERACTION_KEY}${uid}`;
    if (this.get(key) === undefined) return 'gone';
    if (!this.#kept.has(key)) {
      if (this.#kept.size >= this.#capacity) this.#sweep(this.#now());
      if (this.#kept.size >= this.#capacity) return 'full';
      this.#open.delete(key);
      this.#kept.add(key);
    }
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        if (this.#kept.delete(key) && this.#entries.has(key)) this.#addOpen(key);
      },
    };
  }

  #addOpen(key: string): void {
    this.#open.add(key);
    for (const oldest of this.#open) {
      if (this.#open.size <= this.#capacity) break;
      this.delete(oldest);
    }
  }

  #sweep(now: number): void {
    this.#lastSweep = now;
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt <= now) this.delete(key);
    }
  }
}
