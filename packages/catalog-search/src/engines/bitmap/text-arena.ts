/**
 * Strings by slot (a product's seq, a token's id) as UTF-8 in one growing Buffer, outside V8's
 * heap: at 1M products the names, codes and tokens were some 5M strings that every full
 * collection marked, 120–230 ms pauses in the API's query tails. A slot's earlier bytes become
 * garbage, reclaimed once they are half of the arena.
 */
export class TextArena {
  #bytes = Buffer.alloc(1 << 16);
  #used = 0;
  #garbage = 0;
  /** Start of each slot's bytes, -1 for none. */
  #start = new Float64Array(1024).fill(-1);
  #length = new Uint32Array(1024);

  get(slot: number): string {
    const start = slot < this.#start.length ? (this.#start[slot] as number) : -1;
    if (start < 0) return '';
    return this.#bytes.toString('utf8', start, start + (this.#length[slot] as number));
  }

  has(slot: number): boolean {
    return slot < this.#start.length && (this.#start[slot] as number) >= 0;
  }

  set(slot: number, text: string): void {
    this.delete(slot);
    const length = Buffer.byteLength(text);
    this.#reserve(length);
    if (slot >= this.#start.length) this.#growSlots(slot);
    this.#bytes.write(text, this.#used, 'utf8');
    this.#start[slot] = this.#used;
    this.#length[slot] = length;
    this.#used += length;
  }

  delete(slot: number): void {
    if (!this.has(slot)) return;
    this.#garbage += this.#length[slot] as number;
    this.#start[slot] = -1;
  }

  /** Gives back the arena's unused end (after a bulk load). */
  shrink(): void {
    if (this.#garbage * 2 > this.#used) this.#compact();
    this.#bytes = Buffer.from(this.#bytes.subarray(0, this.#used));
  }

  #growSlots(slot: number): void {
    let length = this.#start.length;
    while (length <= slot) length *= 2;
    const start = new Float64Array(length).fill(-1);
    start.set(this.#start);
    const lengths = new Uint32Array(length);
    lengths.set(this.#length);
    this.#start = start;
    this.#length = lengths;
  }

  #reserve(length: number): void {
    if (this.#used + length <= this.#bytes.length) return;
    if (this.#garbage * 2 > this.#used) this.#compact();
    if (this.#used + length <= this.#bytes.length) return;
    // A quarter more at a time, as the token arena grows.
    const size = Math.max(this.#used + length, Math.ceil(this.#bytes.length * 1.25));
    const grown = Buffer.alloc(size);
    this.#bytes.copy(grown, 0, 0, this.#used);
    this.#bytes = grown;
  }

  #compact(): void {
    const compacted = Buffer.alloc(this.#bytes.length);
    let at = 0;
    for (let slot = 0; slot < this.#start.length; slot += 1) {
      const start = this.#start[slot] as number;
      if (start < 0) continue;
      const length = this.#length[slot] as number;
      this.#bytes.copy(compacted, at, start, start + length);
      this.#start[slot] = at;
      at += length;
    }
    this.#bytes = compacted;
    this.#used = at;
    this.#garbage = 0;
  }
}
