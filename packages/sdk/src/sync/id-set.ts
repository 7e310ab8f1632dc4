// The set of product ids a pass has seen, to count a product served twice once (spec 4.4 step 6), in
// bounded memory: a lowercase UUID (the contract's id format) is kept as its 16 bytes in an
// open-addressing table (16 to 43 bytes per id, where a Set of strings takes about 100), and any
// other string in a Set beside it. Exact: two ids are the same member only when their strings are equal.

/** Parses a lowercase 8-4-4-4-12 hex UUID into `into[at..at+3]`; false for anything else. */
function parseUuid(id: string, into: Uint32Array, at: number): boolean {
  if (id.length !== 36) return false;
  let word = 0;
  let nibbles = 0;
  let out = at;
  for (let i = 0; i < 36; i += 1) {
    const code = id.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (code !== 0x2d) return false;
      continue;
    }
    let nibble: number;
    if (code >= 0x30 && code <= 0x39) nibble = code - 0x30;
    else if (code >= 0x61 && code <= 0x66) nibble = code - 0x57;
    else return false;
    word = (word << 4) | nibble;
    nibbles += 1;
    if (nibbles === 8) {
      into[out] = word >>> 0;
      out += 1;
      word = 0;
      nibbles = 0;
    }
  }
  return true;
}

function hash(words: Uint32Array, at: number): number {
  let h = Math.imul((words[at] as number) ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (words[at + 1] as number) ^ (h >>> 15), 0xc2b2ae35);
  h = Math.imul(h ^ (words[at + 2] as number) ^ (h >>> 13), 0x85ebca6b);
  h = Math.imul(h ^ (words[at + 3] as number) ^ (h >>> 16), 0xc2b2ae35);
  return (h ^ (h >>> 15)) >>> 0;
}

function isZero(words: Uint32Array, at: number): boolean {
  return (
    ((words[at] as number) |
      (words[at + 1] as number) |
      (words[at + 2] as number) |
      (words[at + 3] as number)) ===
    0
  );
}

const INITIAL_SLOTS = 1 << 12;

export class IdSet {
  #slots = INITIAL_SLOTS;
  /** Four words per slot; an all-zero slot is empty (the nil UUID is counted apart). */
  #table = new Uint32Array(INITIAL_SLOTS * 4);
  #packed = 0;
  #nil = false;
  readonly #others = new Set<string>();
  readonly #scratch = new Uint32Array(4);

  get size(): number {
    return this.#packed + (this.#nil ? 1 : 0) + this.#others.size;
  }

  /** Adds `id`; true when it was not a member yet. */
  add(id: string): boolean {
    const key = this.#scratch;
    if (!parseUuid(id, key, 0)) {
      if (this.#others.has(id)) return false;
      this.#others.add(id);
      return true;
    }
    if (isZero(key, 0)) {
      if (this.#nil) return false;
      this.#nil = true;
      return true;
    }
    if (!this.#insert(this.#table, this.#slots, key, 0)) return false;
    this.#packed += 1;
    // Load ≤ 3/4 keeps probes short.
    if (this.#packed * 4 > this.#slots * 3) this.#grow();
    return true;
  }

  has(id: string): boolean {
    const key = this.#scratch;
    if (!parseUuid(id, key, 0)) return this.#others.has(id);
    if (isZero(key, 0)) return this.#nil;
    const table = this.#table;
    const mask = this.#slots - 1;
    for (let slot = hash(key, 0) & mask; ; slot = (slot + 1) & mask) {
      const at = slot * 4;
      if (isZero(table, at)) return false;
      if (
        table[at] === key[0] &&
        table[at + 1] === key[1] &&
        table[at + 2] === key[2] &&
        table[at + 3] === key[3]
      )
        return true;
    }
  }

  /** Inserts words[from..from+3]; false when already present. */
  #insert(table: Uint32Array, slots: number, words: Uint32Array, from: number): boolean {
    const mask = slots - 1;
    const w0 = words[from] as number;
    const w1 = words[from + 1] as number;
    const w2 = words[from + 2] as number;
    const w3 = words[from + 3] as number;
    for (let slot = hash(words, from) & mask; ; slot = (slot + 1) & mask) {
      const at = slot * 4;
      const a = table[at] as number;
      const b = table[at + 1] as number;
      const c = table[at + 2] as number;
      const d = table[at + 3] as number;
      if ((a | b | c | d) === 0) {
        table[at] = w0;
        table[at + 1] = w1;
        table[at + 2] = w2;
        table[at + 3] = w3;
        return true;
      }
      if (a === w0 && b === w1 && c === w2 && d === w3) return false;
    }
  }

  #grow(): void {
    const old = this.#table;
    const slots = this.#slots * 2;
    const table = new Uint32Array(slots * 4);
    for (let at = 0; at < old.length; at += 4) {
      if (!isZero(old, at)) this.#insert(table, slots, old, at);
    }
    this.#table = table;
    this.#slots = slots;
  }
}

/**
 * A map from id to an unsigned 32-bit number (a line of a file) in the same compact form: 20 to 54 bytes
 * per lowercase UUID, a Map beside it for any other string.
 */
export class IdMap {
  #slots = INITIAL_SLOTS;
  #keys = new Uint32Array(INITIAL_SLOTS * 4);
  #values = new Uint32Array(INITIAL_SLOTS);
  #packed = 0;
  #nil: number | undefined;
  readonly #others = new Map<string, number>();
  readonly #scratch = new Uint32Array(4);

  get size(): number {
    return this.#packed + (this.#nil === undefined ? 0 : 1) + this.#others.size;
  }

  get(id: string): number | undefined {
    const key = this.#scratch;
    if (!parseUuid(id, key, 0)) return this.#others.get(id);
    if (isZero(key, 0)) return this.#nil;
    const slot = this.#find(this.#keys, this.#slots, key, 0);
    return isZero(this.#keys, slot * 4) ? undefined : this.#values[slot];
  }

  set(id: string, value: number): void {
    const key = this.#scratch;
    if (!parseUuid(id, key, 0)) {
      this.#others.set(id, value);
      return;
    }
    if (isZero(key, 0)) {
      this.#nil = value;
      return;
    }
    const slot = this.#find(this.#keys, this.#slots, key, 0);
    const at = slot * 4;
    if (isZero(this.#keys, at)) {
      this.#keys.set(key, at);
      this.#packed += 1;
    }
    this.#values[slot] = value;
    if (this.#packed * 4 > this.#slots * 3) this.#grow();
  }

  /** The slot holding words[from..from+3], or the empty slot where they would go. */
  #find(keys: Uint32Array, slots: number, words: Uint32Array, from: number): number {
    const mask = slots - 1;
    for (let slot = hash(words, from) & mask; ; slot = (slot + 1) & mask) {
      const at = slot * 4;
      if (isZero(keys, at)) return slot;
      if (
        keys[at] === words[from] &&
        keys[at + 1] === words[from + 1] &&
        keys[at + 2] === words[from + 2] &&
        keys[at + 3] === words[from + 3]
      )
        return slot;
    }
  }

  #grow(): void {
    const oldKeys = this.#keys;
    const oldValues = this.#values;
    const slots = this.#slots * 2;
    const keys = new Uint32Array(slots * 4);
    const values = new Uint32Array(slots);
    for (let slot = 0; slot < this.#slots; slot += 1) {
      const at = slot * 4;
      if (isZero(oldKeys, at)) continue;
      const target = this.#find(keys, slots, oldKeys, at);
      keys.set(oldKeys.subarray(at, at + 4), target * 4);
      values[target] = oldValues[slot] as number;
    }
    this.#keys = keys;
    this.#values = values;
    this.#slots = slots;
  }
}
