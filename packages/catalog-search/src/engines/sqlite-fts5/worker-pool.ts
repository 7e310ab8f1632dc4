import { Worker } from 'node:worker_threads';
import type { StoreError } from '@catalog/store';
import { IdentifierLookupIncompleteError, SearchIncompleteError, SearchTimeoutError } from '@catalog/store';
import type { JobResult, WorkerReply, WorkerRequest, WorkerSetup } from './worker-protocol.ts';

// From src (vitest, scripts) Node runs the TypeScript worker directly; from dist, the built file.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(FROM_SOURCE ? './search-worker.ts' : './search-worker.js', import.meta.url);
/**
 * A worker started from source must resolve @catalog/store to its sources too: a test runner's
 * process resolves them through its own loader, which a worker thread does not inherit. It is given
 * that flag alone, not the parent's: a worker refuses the process-wide and V8 flags a parent may run
 * with (the benches' --expose-gc, the API's --max-semi-space-size), where the inherited default
 * drops them. From dist the worker inherits the parent's flags as Node's default does.
 */
const WORKER_OPTIONS = FROM_SOURCE ? { execArgv: ['--conditions=source'] } : {};

/**
 * Each worker's young generation, in MB. A search allocates a page's records and JSON and drops them
 * at once; under a steady mix V8 grows every isolate's young generation to its largest (some 100 MB
 * on a 64-bit machine with memory to spare), which stays resident: three isolates made most of the
 * API's 558 MB at 1M products. Jobs die young whatever its size, so a small one costs no throughput.
 */
const WORKER_YOUNG_GENERATION_MB = 12;

type Request = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never;

/** What a search asked for, in a handful of values (a metrics label, never the query itself). */
export type SearchKind = 'text' | 'identifier' | 'browse' | 'brand';

/** How a job ended: answered, past its budget (SEARCH_TIMEOUT), or unprovable (SEARCH_INCOMPLETE...). */
export type SearchJobOutcome = 'completed' | 'timeout' | 'incomplete';

export interface SearchPoolLoad {
  /** Jobs accepted but not yet running (in the pool's queue or behind another job in a worker's port). */
  queued: number;
  /** Workers running a job. */
  busyWorkers: number;
  workers: number;
}

/**
 * Lets the server measure the pool (metrics) without this package knowing how: `watchLoad` is handed
 * a reader of the current load once, `jobSettled` hears of every job as it ends.
 */
export interface SearchPoolObserver {
  watchLoad?(load: () => SearchPoolLoad): void;
  jobSettled?(job: { kind: SearchKind; outcome: SearchJobOutcome; seconds: number }): void;
  /** A search page answered from the page cache (paging/page-cache.ts), without a job. */
  pageCacheHit?(): void;
}

function kindOf(request: WorkerRequest): SearchKind {
  if (request.kind === 'brands') return 'brand';
  const { query } = request.job;
  if (query.terms.length > 0) return 'text';
  return query.identifier === null ? 'browse' : 'identifier';
}

interface Job {
  id: number;
  request: WorkerRequest;
  /** performance.now() when the job was accepted: its time includes the queueing. */
  acceptedAt: number;
  resolve: (value: unknown) => void;
  reject: (error: StoreError) => void;
  timer: NodeJS.Timeout;
  slot: Slot | null;
}

interface Slot {
  worker: Worker;
  /** Posted to this worker and not yet answered, oldest (the one running) first. */
  jobs: Job[];
}

/**
 * Jobs posted to one worker at a time: the running one plus one waiting in its port, so a worker
 * never sits idle while its answer crosses to the main thread and the next job crosses back. A
 * second job is posted only when no worker is idle.
 */
const JOBS_PER_WORKER = 2;

export interface WorkerPoolOptions {
  databasePath: string;
  size: number;
  /** Budget per query, queueing included; past it the caller gets SEARCH_TIMEOUT. */
  timeoutMs: number;
  observer?: SearchPoolObserver;
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
    options.observer?.watchLoad?.(() => this.#load());
  }

  #load(): SearchPoolLoad {
    let waitingInPorts = 0;
    let busyWorkers = 0;
    for (const slot of this.#slots) {
      if (slot.jobs.length > 0) busyWorkers += 1;
      waitingInPorts += Math.max(0, slot.jobs.length - 1);
    }
    return { queued: this.#queue.length + waitingInPorts, busyWorkers, workers: this.#slots.length };
  }

  #report(job: Job, outcome: SearchJobOutcome): void {
    this.#options.observer?.jobSettled?.({
      kind: kindOf(job.request),
      outcome,
      seconds: (performance.now() - job.acceptedAt) / 1000,
    });
  }

  run<R extends Request>(request: R): Promise<JobResult<R & WorkerRequest>> {
    if (this.#closed)
      return Promise.reject(new SearchIncompleteError({ cause: new Error('search pool closed') }));
    return new Promise((resolve, reject) => {
      const id = this.#nextId++;
      const job: Job = {
        id,
        request: { ...request, id } as WorkerRequest,
        acceptedAt: performance.now(),
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
    for (const slot of slots)
      for (const job of slot.jobs.splice(0)) this.#fail(job, new SearchIncompleteError());
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  #spawn(): Slot {
    const setup: WorkerSetup = { databasePath: this.#options.databasePath };
    const worker = new Worker(WORKER_URL, {
      workerData: setup,
      ...WORKER_OPTIONS,
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    const slot: Slot = { worker, jobs: [] };
    worker.on('message', (reply: WorkerReply) => this.#settle(slot, reply));
    worker.on('error', (error) => this.#lose(slot, error));
    worker.on('exit', (code) => this.#lose(slot, new Error(`search worker exited with code ${code}`)));
    worker.unref();
    this.#slots.push(slot);
    return slot;
  }

  /** The least loaded worker with room; the whole pool starts with the first job, not one by one. */
  #pick(): Slot | undefined {
    // Spawning lazily one at a time left the later workers starting (module load, connection)
    // while the first one took nearly every job of a burst.
    while (this.#slots.length < this.#options.size) this.#spawn();
    let best: Slot | undefined;
    for (const slot of this.#slots) {
      if (slot.jobs.length < JOBS_PER_WORKER && (best === undefined || slot.jobs.length < best.jobs.length))
        best = slot;
    }
    return best;
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      const slot = this.#pick();
      if (slot === undefined) return;
      const job = this.#queue.shift() as Job;
      slot.jobs.push(job);
      job.slot = slot;
      // A busy worker keeps the process alive until its answer arrives; an idle one does not.
      if (slot.jobs.length === 1) slot.worker.ref();
      slot.worker.postMessage(job.request);
    }
  }

  #settle(slot: Slot, reply: WorkerReply): void {
    const index = slot.jobs.findIndex((candidate) => candidate.id === reply.id);
    if (index < 0) return;
    const job = slot.jobs[index] as Job;
    slot.jobs.splice(index, 1);
    if (slot.jobs.length === 0) slot.worker.unref();
    clearTimeout(job.timer);
    this.#report(job, reply.ok ? 'completed' : 'incomplete');
    if (reply.ok) job.resolve(reply.result);
    else {
      const cause = new Error(reply.message);
      job.reject(
        reply.kind === 'identifier'
          ? new IdentifierLookupIncompleteError({ cause })
          : new SearchIncompleteError({ cause }),
      );
    }
    this.#dispatch();
  }

  #fail(job: Job, error: StoreError): void {
    clearTimeout(job.timer);
    this.#report(job, 'incomplete');
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
    const index = slot === null ? -1 : slot.jobs.indexOf(job);
    if (slot !== null && index === 0) {
      // The running job: abandon the worker. The job waiting behind it has not started; requeue it.
      this.#retire(slot);
      const waiting = slot.jobs.splice(0).slice(1);
      for (const other of waiting) other.slot = null;
      this.#queue.unshift(...waiting);
      void slot.worker.terminate();
      // Start the replacement now, so the next query does not also pay for a thread start.
      if (!this.#closed) this.#spawn();
    } else if (slot !== null && index > 0) {
      // Not started yet: the worker will still run it, and its answer is ignored.
      slot.jobs.splice(index, 1);
    }
    this.#report(job, 'timeout');
    job.reject(new SearchTimeoutError(this.#options.timeoutMs));
    this.#dispatch();
  }

  #lose(slot: Slot, error: unknown): void {
    const wasMember = this.#slots.includes(slot);
    this.#retire(slot);
    for (const job of slot.jobs.splice(0)) this.#fail(job, new SearchIncompleteError({ cause: error }));
    if (wasMember && !this.#closed) this.#dispatch();
  }
}
