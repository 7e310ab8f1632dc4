/** Every slot is taken and the queue is full: the caller should come back later. */
export class GateFullError extends Error {
  constructor() {
    super('too much work in progress');
    this.name = 'GateFullError';
  }
}

/**
 * Runs at most `concurrency` tasks at once and keeps at most `queue` waiting; a task past that is
 * refused with GateFullError instead of piling onto libuv's thread pool (scrypt runs there, and so
 * does every file read of the server).
 */
export class ConcurrencyGate {
  readonly #concurrency: number;
  readonly #queue: number;
  readonly #waiting: Array<() => void> = [];
  #running = 0;

  constructor(options: { readonly concurrency: number; readonly queue: number }) {
    this.#concurrency = options.concurrency;
    this.#queue = options.queue;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#concurrency) {
      if (this.#waiting.length >= this.#queue) throw new GateFullError();
      // The slot is handed over by the task that frees it, so #running stays counted.
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#running += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next === undefined) this.#running -= 1;
      else next();
    }
  }
}
