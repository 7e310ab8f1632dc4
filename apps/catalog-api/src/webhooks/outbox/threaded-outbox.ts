import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { DeliveryRound, DeliveryRoundResult, WebhookQueueDepth } from '@catalog/store';
import type { OpenDeliveryOutbox } from './delivery-outbox.ts';
import type {
  EmbeddedLocation,
  OutboxThreadReply,
  OutboxThreadRequest,
  OutboxThreadSetup,
} from './outbox-thread-protocol.ts';

// From src (vitest, the benches) Node runs the TypeScript thread directly; from dist, the built file.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const THREAD_URL = new URL(FROM_SOURCE ? './outbox-thread.ts' : './outbox-thread.js', import.meta.url);
// A thread started from source resolves the workspace packages to their sources as its parent
// does; it is given that flag alone (a worker refuses the API's V8 flags, --max-semi-space-size).
const THREAD_OPTIONS = FROM_SOURCE ? { execArgv: ['--conditions=source'] } : {};

/**
 * The rounds' share of the file's write lock while the catalogue is being written (see
 * openSqliteWebhookStore): writes come first, deliveries catch up when they pause.
 */
const OUTBOX_WRITE_SHARE = 0.15;

type OutboxCall = OutboxThreadRequest extends infer R
  ? R extends OutboxThreadRequest
    ? Omit<R, 'id'>
    : never
  : never;
type Pending = { resolve(value: unknown): void; reject(error: Error): void };

/**
 * The outbox in a worker thread with its own connection to the embedded database. node:sqlite runs
 * a statement on the calling thread, and a transaction that waits for the file's write lock (another
 * process writing: an import, the CLI) or commits thousands of rows blocks it: on the API's event
 * loop that held every answer of the deliveries under way, and every request, for the round's length.
 * A thread that dies is started again at the next call; its rounds' claims run out and are taken again.
 */
export class ThreadedOutbox implements OpenDeliveryOutbox {
  readonly #location: EmbeddedLocation;
  readonly #pending = new Map<number, Pending>();
  #thread: Promise<Worker> | undefined;
  #next = 0;
  #closed = false;

  constructor(location: EmbeddedLocation) {
    this.#location = location;
  }

  /** Starts the thread and waits until its records are open (a failure to open them is thrown here). */
  async open(): Promise<this> {
    await this.#worker();
    return this;
  }

  deliveryRound(round: DeliveryRound): Promise<DeliveryRoundResult> {
    return this.#call({ method: 'deliveryRound', round }) as Promise<DeliveryRoundResult>;
  }

  pruneDeliveries(before: Date, limit: number): Promise<number> {
    return this.#call({ method: 'pruneDeliveries', before, limit }) as Promise<number>;
  }

  queueDepth(): Promise<WebhookQueueDepth> {
    return this.#call({ method: 'queueDepth' }) as Promise<WebhookQueueDepth>;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const thread = await this.#thread?.catch(() => undefined);
    if (thread === undefined) return;
    const exited = once(thread, 'exit');
    thread.postMessage('close');
    await exited;
  }

  async #call(request: OutboxCall): Promise<unknown> {
    if (this.#closed) throw new Error('the outbox is closed');
    const thread = await this.#worker();
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      thread.postMessage({ ...request, id } as OutboxThreadRequest);
    });
  }

  #worker(): Promise<Worker> {
    if (this.#thread !== undefined) return this.#thread;
    const thread = this.#start(() => {
      if (this.#thread === thread) this.#thread = undefined;
    });
    this.#thread = thread;
    return thread;
  }

  /** `forget` runs when the thread fails to start or exits: the next call starts another. */
  #start(forget: () => void): Promise<Worker> {
    const setup: OutboxThreadSetup = { location: this.#location, writeShare: OUTBOX_WRITE_SHARE };
    const thread = new Worker(THREAD_URL, { ...THREAD_OPTIONS, workerData: setup });
    const started = new Promise<Worker>((resolve, reject) => {
      thread.once('message', (first) => {
        if (first === 'ready') resolve(thread);
      });
      thread.once('error', reject);
      thread.once('exit', (code) =>
        reject(new Error(`the outbox thread exited (${code}) before it was ready`)),
      );
    });
    thread.on('message', (reply: OutboxThreadReply | 'ready') => {
      if (reply === 'ready') return;
      const pending = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      if (reply.ok) pending?.resolve(reply.result);
      else pending?.reject(new Error(reply.message));
    });
    thread.on('error', () => undefined);
    thread.on('exit', (code) => {
      // Whatever it was doing is lost with it; the next call starts another.
      forget();
      for (const pending of this.#pending.values())
        pending.reject(new Error(`the outbox thread exited (${code})`));
      this.#pending.clear();
    });
    started.catch(forget);
    return started;
  }
}
