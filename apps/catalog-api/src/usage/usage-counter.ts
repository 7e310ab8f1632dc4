import type { ClientStore } from '@catalog/store';
import type { Logger } from 'pino';
import type { CatalogMetrics } from '../metrics/catalog-metrics.ts';

/**
 * Counts API calls per client in memory and adds them to the store in batches, so a busy client
 * does not cost a database write per request. A failed write keeps its counts for the next flush,
 * and `stop()` flushes what is left, so a graceful shutdown loses no count.
 */
export class UsageCounter {
  readonly #clients: ClientStore;
  readonly #logger: Logger;
  readonly #metrics: Pick<CatalogMetrics, 'usageFlushed'> | undefined;
  #pending = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;

  constructor(clients: ClientStore, logger: Logger, metrics?: Pick<CatalogMetrics, 'usageFlushed'>) {
    this.#clients = clients;
    this.#logger = logger;
    this.#metrics = metrics;
  }

  record(clientId: string): void {
    this.#pending.set(clientId, (this.#pending.get(clientId) ?? 0) + 1);
  }

  async flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = new Map();
    // A flush with nothing to write is not a write: only real flushes are counted.
    if (batch.size === 0) return;
    let failed = false;
    for (const [clientId, calls] of batch) {
      try {
        await this.#clients.recordUsage(clientId, calls);
      } catch (error) {
        failed = true;
        this.#pending.set(clientId, (this.#pending.get(clientId) ?? 0) + calls);
        this.#logger.warn({ err: error, clientId, calls }, 'usage counts kept for the next flush');
      }
    }
    this.#metrics?.usageFlushed(failed ? 'failed' : 'ok');
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
