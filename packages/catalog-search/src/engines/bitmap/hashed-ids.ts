const EMPTY = -1;
const REMOVED = -2;

/** FNV-1a over the UTF-16 code units. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Ids by text key in an open-addressing table of typed arrays: the key's hash and the id, the key
 * itself left where the caller keeps it (`holds` checks an id against a key). At 1M products a
 * Map of every token or code key held some 150 MB of V8 heap, kept alive and walked by every
 * full GC; these arrays hold 8 bytes a slot outside it. A key may have several ids (two products
 * sharing a code key).
 */
export class HashedIds {
  readonly #holds: (id: number, key: string) => boolean;
  #hashes = new Uint32Array(1024);
  #ids = new Int32Array(1024).fill(EMPTY);
  #used = 0;

  constructor(holds: (id: number, key: string) => boolean) {
    this.#holds = holds;
  }

  /** Every id stored under `key`. */
  find(key: string): number[] {
    const out: number[] = [];
    this.#probe(key, (slot) => {
      out.push(this.#ids[slot] as number);
      return false;
    });
    return out;
  }

  /** The first id stored under `key`, or undefined. */
  first(key: string): number | undefined {
    let found: number | undefined;
    this.#probe(key, (slot) => {
      found = this.#ids[slot] as number;
      return true;
    });
    return found;
  }

  add(key: string, id: number): void {
    if ((this.#used + 1) * 2 > this.#ids.length) this.#resize(this.#ids.length * 2);
    const mask = this.#ids.length - 1;
    const hash = hashText(key);
    let slot = hash & mask;
    while ((this.#ids[slot] as number) >= 0) slot = (slot + 1) & mask;
    if (this.#ids[slot] === EMPTY) this.#used += 1;
    this.#hashes[slot] = hash;
    this.#ids[slot] = id;
  }

  /** Removes `id` from `key`'s ids; called while `holds(id, key)` is still true. */
  remove(key: string, id: number): void {
    this.#probe(key, (slot) => {
      if (this.#ids[slot] !== id) return false;
      this.#ids[slot] = REMOVED;
      return true;
    });
  }

  /** Visits the slots holding `key` until `visit` returns true. */
  #probe(key: string, visit: (slot: number) => boolean): void {
    const mask = this.#ids.length - 1;
    const hash = hashText(key);
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.#ids[slot] as number;
      if (id === EMPTY) return;
      if (id >= 0 && this.#hashes[slot] === hash && this.#holds(id, key) && visit(slot)) return;
    }
  }

  #resize(length: number): void {
    const hashes = this.#hashes;
    const ids = this.#ids;
    this.#hashes = new Uint32Array(length);
    this.#ids = new Int32Array(length).fill(EMPTY);
    this.#used = 0;
    const mask = length - 1;
    for (let old = 0; old < ids.length; old += 1) {
      const id = ids[old] as number;
      if (id < 0) continue;
      let slot = (hashes[old] as number) & mask;
      while (this.#ids[slot] !== EMPTY) slot = (slot + 1) & mask;
      this.#hashes[slot] = hashes[old] as number;
      this.#ids[slot] = id;
      this.#used += 1;
    }
  }
}
