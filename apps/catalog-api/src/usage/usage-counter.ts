import type { ClientStore } from '@catalog/store';
import type { Logger } from 'pino';

/**
 * Counts API calls per client in memory and adds them to the store in batches, so a busy client
 * does not cost a database write per request. A failed write keeps its counts for the next flush,
 * and `stop()` flushes what is left, so a graceful shutdown loses no count.
 */
export class UsageCounter {
  readonly #clients: ClientStore;
  readonly #logger: Logger;
  #pending = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;

  constructor(clients: ClientStore, logger: Logger) {
    this.#clients = clients;
    this.#logger = logger;
  }

  record(clientId: string): void {
    this.#pending.set(clientId, (this.#pending.get(clientId) ?? 0) + 1);
  }

  async flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = new Map();
    for (const [clientId, calls] of batch) {
      try {
        await this.#clients.recordUsage(clientId, calls);
      } catch (error) {
        this.#pending.set(clientId, (this.#pending.get(clientId) ?? 0) + calls);
        this.#logger.warn({ err: error, clientId, calls }, 'usage counts kept for the next flush');
      }
    }
  }

  /** Flushes every `intervalMs`; 0 writes only on stop (and on explicit flush). */
  start(intervalMs: number): void {
    if (intervalMs > 0) {
      this.#timer = setInterval(() => void this.flush(), intervalMs);
      this.#timer.unref();
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }
}
