import { Worker } from 'node:worker_threads';
import {
  IdentifierLookupIncompleteError,
  SearchIncompleteError,
  SearchTimeoutError,
} from '../../../errors/search-errors.ts';
import type { StoreError } from '../../../errors/store-error.ts';
import type { JobResult, WorkerReply, WorkerRequest, WorkerSetup } from './worker-protocol.ts';

// From src (vitest, scripts) Node runs the TypeScript worker directly; from dist, the built file.
const WORKER_URL = new URL(
  import.meta.url.endsWith('.ts') ? './search-worker.ts' : './search-worker.js',
  import.meta.url,
);

type Request = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never;

interface Job {
  id: number;
  request: WorkerRequest;
  resolve: (value: unknown) => void;
  reject: (error: StoreError) => void;
  timer: NodeJS.Timeout;
  slot: Slot | null;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

export interface WorkerPoolOptions {
  databasePath: string;
  size: number;
  /** Budget per query, queueing included; past it the caller gets SEARCH_TIMEOUT. */
  timeoutMs: number;
}

/**
 * A fixed set of worker threads, each with its own read connection. A job that overruns its
 * budget is rejected at once and its worker replaced: SQLite cannot be interrupted from outside,
 * so the old thread finishes its statement and exits, while new jobs go to the fresh one.
 */
export class SearchWorkerPool {
  readonly #options: WorkerPoolOptions;
  readonly #slots: Slot[] = [];
  readonly #queue: Job[] = [];
  #nextId = 1;
  #closed = false;

  constructor(options: WorkerPoolOptions) {
    this.#options = options;
  }

  run<R extends Request>(request: R): Promise<JobResult<R & WorkerRequest>> {
    if (this.#closed)
      return Promise.reject(new SearchIncompleteError({ cause: new Error('search pool closed') }));
    return new Promise((resolve, reject) => {
      const id = this.#nextId++;
      const job: Job = {
        id,
        request: { ...request, id } as WorkerRequest,
        resolve: resolve as (value: unknown) => void,
        reject,
        slot: null,
        timer: setTimeout(() => this.#expire(job), this.#options.timeoutMs),
      };
      this.#queue.push(job);
      this.#dispatch();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) this.#fail(job, new SearchIncompleteError());
    const slots = this.#slots.splice(0);
    for (const slot of slots) if (slot.job !== null) this.#fail(slot.job, new SearchIncompleteError());
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  #spawn(): Slot {
    const setup: WorkerSetup = { databasePath: this.#options.databasePath };
    const worker = new Worker(WORKER_URL, { workerData: setup });
    const slot: Slot = { worker, job: null };
    worker.on('message', (reply: WorkerReply) => this.#settle(slot, reply));
    worker.on('error', (error) => this.#lose(slot, error));
    worker.on('exit', (code) => this.#lose(slot, new Error(`search worker exited with code ${code}`)));
    worker.unref();
    this.#slots.push(slot);
    return slot;
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      let slot = this.#slots.find((candidate) => candidate.job === null);
      if (slot === undefined && this.#slots.length < this.#options.size) slot = this.#spawn();
      if (slot === undefined) return;
      const job = this.#queue.shift() as Job;
      slot.job = job;
      job.slot = slot;
      // A busy worker keeps the process alive until its answer arrives; an idle one does not.
      slot.worker.ref();
      slot.worker.postMessage(job.request);
    }
  }

  #release(slot: Slot): void {
    slot.job = null;
    slot.worker.unref();
    this.#dispatch();
  }

  #settle(slot: Slot, reply: WorkerReply): void {
    const job = slot.job;
    if (job === null || job.id !== reply.id) return;
    clearTimeout(job.timer);
    if (reply.ok) job.resolve(reply.result);
    else {
      const cause = new Error(reply.message);
      job.reject(
        reply.kind === 'identifier'
          ? new IdentifierLookupIncompleteError({ cause })
          : new SearchIncompleteError({ cause }),
      );
    }
    this.#release(slot);
  }

  #fail(job: Job, error: StoreError): void {
    clearTimeout(job.timer);
    job.reject(error);
  }

  #retire(slot: Slot): void {
    const index = this.#slots.indexOf(slot);
    if (index >= 0) this.#slots.splice(index, 1);
  }

  #expire(job: Job): void {
    const queued = this.#queue.indexOf(job);
    if (queued >= 0) this.#queue.splice(queued, 1);
    const slot = job.slot;
    if (slot !== null && slot.job === job) {
      this.#retire(slot);
      slot.job = null;
      void slot.worker.terminate();
      // Start the replacement now, so the next query does not also pay for a thread start.
      if (!this.#closed) this.#spawn();
    }
    job.reject(new SearchTimeoutError(this.#options.timeoutMs));
    this.#dispatch();
  }

  #lose(slot: Slot, error: unknown): void {
    const wasMember = this.#slots.includes(slot);
    this.#retire(slot);
    const job = slot.job;
    slot.job = null;
    if (job !== null) this.#fail(job, new SearchIncompleteError({ cause: error }));
    if (wasMember && !this.#closed) this.#dispatch();
  }
}
