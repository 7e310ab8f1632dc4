// The incremental sync procedure of spec 4.4, every step.
import type { Product, ProductSearchResponse } from '@catalog/contracts';
import type { CatalogClient } from '../client.ts';
import { SEARCH_SIZE_MAX, SYNC_OVERLAP_SECONDS } from '../contract-values.ts';
import { AbortError, CatalogError, InvalidSyncTokenError } from '../errors.ts';
import { fullJitterDelay, sleep } from '../http/backoff.ts';
import { linkedSignal } from '../http/linked-signal.ts';
import { childTraceparent, traceOf } from '../http/trace-context.ts';
import { DEFAULT_RETRY, type RetryPolicy } from '../http/transport.ts';
import type { CheckpointStore, SyncProgress } from './checkpoint-store.ts';
import { IdSet } from './id-set.ts';

/** Step 8: a page is attempted at most three times. */
export const MAX_PAGE_ATTEMPTS = 3;

/** Step 1: the first pass asks for the whole non-archived catalogue. */
export const EPOCH = '1970-01-01T00:00:00Z';

export interface SyncOptions {
  /** The client; its retry policy (`retry`) is the runner's unless `retry` below overrides it. */
  readonly client: Pick<CatalogClient, 'products'> & Partial<Pick<CatalogClient, 'retry'>>;
  readonly checkpointStore: CheckpointStore;
  /**
   * Writes a page downstream, upserting by `id` (step 6). Never asked to delete (step 7). Durable when
   * it returns, unless `flush` is given.
   */
  readonly upsert: (products: Product[]) => Promise<void> | void;
  /**
   * Makes every page upserted so far durable. When given, `upsert` may buffer: `flush` is called before
   * each saved cursor and before the commit, never a cursor saved past what it made durable.
   */
  readonly flush?: () => Promise<void> | void;
  /**
   * The least time between two saved cursors (default 1000 ms; 0 = after every page). A crashed pass
   * resumes from the last one saved and reads again at most this much (upserts are by id).
   */
  readonly progressIntervalMs?: number;
  /** Ignore the stored checkpoint and cursor: a first pass from the epoch. */
  readonly full?: boolean;
  /** Page size (default 100, the maximum: the fewest requests under the per-IP limit). */
  readonly pageSize?: number;
  /** Overlap window in seconds (default 900, from the contract). */
  readonly overlapSeconds?: number;
  /** Restarts from the committed checkpoint after INVALID_SYNC_TOKEN (default 2). */
  readonly maxRestarts?: number;
  /**
   * The retry policy of each page, over the client's (one policy, one set of defaults: DEFAULT_RETRY).
   * `maxAttempts` is the attempts per page (step 8: at most 3 whatever is asked).
   */
  readonly retry?: Partial<RetryPolicy>;
  /** Run without committing the checkpoint or saving progress. */
  readonly dryRun?: boolean;
  readonly signal?: AbortSignal;
  /**
   * A W3C `traceparent` whose trace the run joins. Default: a new trace per run. Every request of
   * the run (each page, each retry, a token request) carries the run's trace id.
   */
  readonly traceparent?: string;
  readonly onPage?: (event: { pages: number; products: number; total: number | undefined }) => void;
  readonly onRetry?: (event: {
    attempt: number;
    delayMs: number;
    pageSize: number;
    error: CatalogError;
  }) => void;
  readonly now?: () => number;
}

export interface SyncReport {
  /** Whether this pass started from the epoch. */
  readonly full: boolean;
  /** Whether it continued a crashed pass from its saved cursor. */
  readonly resumed: boolean;
  readonly updatedAfter: string;
  readonly pages: number;
  /** Distinct products this run handed to `upsert` (a product served twice counts once, step 6). */
  readonly productsUpserted: number;
  readonly retries: number;
  /** Restarts after INVALID_SYNC_TOKEN. */
  readonly restarts: number;
  readonly durationMs: number;
  /** The W3C trace id every request of the run was sent with: the servers log it on each request line. */
  readonly traceId: string;
  /** The checkpoint committed (null on a dry run). */
  readonly checkpoint: string | null;
}

/** A pass that stopped without committing. `cause` is the error that stopped it. */
export class SyncAbortedError extends Error {
  override readonly name = 'SyncAbortedError';
  /** Whether running again later may succeed (the cause was retryable). */
  readonly retryable: boolean;
  readonly report: Omit<SyncReport, 'checkpoint'>;
  constructor(message: string, report: Omit<SyncReport, 'checkpoint'>, cause: unknown) {
    super(message, { cause });
    this.report = report;
    this.retryable = cause instanceof CatalogError ? cause.retryable : false;
  }
}

/** An error counts against the page's attempts when it may succeed later, or when its cause is unknown. */
function retryablePageError(error: unknown): error is CatalogError {
  if (!(error instanceof CatalogError) || error instanceof AbortError) return false;
  return error.retryable || (error.status === undefined && error.code === undefined);
}

interface Cursor {
  readonly updatedAfter: string;
  readonly syncToken: string | undefined;
}

export async function sync(options: SyncOptions): Promise<SyncReport> {
  const now = options.now ?? Date.now;
  const started = now();
  const store = options.checkpointStore;
  const maxSize = Math.min(options.pageSize ?? SEARCH_SIZE_MAX, SEARCH_SIZE_MAX);
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...options.client.retry, ...options.retry };
  const maxPageAttempts = Math.min(Math.max(1, retry.maxAttempts), MAX_PAGE_ATTEMPTS);
  const maxRestarts = options.maxRestarts ?? 2;
  const overlapMs = (options.overlapSeconds ?? SYNC_OVERLAP_SECONDS) * 1000;
  const progressIntervalMs = Math.max(0, options.progressIntervalMs ?? 1000);
  // One trace for the run; each page call sends its attempts as children of this one.
  const trace = traceOf(options.traceparent);
  const traceparent = childTraceparent(trace);

  const state = options.full ? { checkpoint: null, progress: null } : await store.load();
  const committed = state.checkpoint;
  const resumed = state.progress !== null;
  // Step 3: the new checkpoint is captured before the pass starts, rewound by the overlap window.
  const nextCheckpoint = state.progress?.nextCheckpoint ?? new Date(started - overlapMs).toISOString();
  let updatedAfter = state.progress?.updatedAfter ?? committed ?? EPOCH;
  let size = Math.min(state.progress?.pageSize ?? maxSize, maxSize);
  let pages = 0;
  // Step 6: the live index may serve a product twice in a pass; it is one product, counted once.
  const upsertedIds = new IdSet();
  let retries = 0;
  let restarts = 0;
  // The cursor after the last upserted page, and whether it is saved yet.
  let unsaved: string | undefined;
  let lastSavedAt = Number.NEGATIVE_INFINITY;

  const report = () => ({
    full: committed === null,
    resumed,
    updatedAfter,
    pages,
    productsUpserted: upsertedIds.size,
    retries,
    restarts,
    durationMs: now() - started,
    traceId: trace.traceId,
  });

  const fetchPage = async (at: Cursor, signal: AbortSignal): Promise<ProductSearchResponse> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const query = {
          updatedAfter: at.updatedAfter,
          size,
          ...(at.syncToken === undefined ? {} : { syncToken: at.syncToken }),
        };
        // The runner counts the attempts of a page itself (step 8); the client makes one per call.
        return await options.client.products.search(query, { maxAttempts: 1, traceparent, signal });
      } catch (error) {
        if (!retryablePageError(error) || attempt >= maxPageAttempts) throw error;
        if (error.retryAfterMs !== undefined && error.retryAfterMs > retry.maxRetryAfterMs) throw error;
        retries += 1;
        // Step 8: when a page has failed twice, halve size for the next attempt.
        if (attempt >= 2) size = Math.max(1, Math.floor(size / 2));
        const delayMs = Math.max(error.retryAfterMs ?? 0, fullJitterDelay(attempt, retry));
        options.onRetry?.({ attempt, delayMs, pageSize: size, error });
        await sleep(delayMs, signal);
      }
    }
  };

  // One signal for the pass (the caller's, and the pass stopping on an error), not one per page.
  const stopPass = new AbortController();
  const passSignal = linkedSignal([options.signal, stopPass.signal], 0);

  /** Starts fetching a page; a pass that stops first cancels it (`cancel`) and waits for it to settle. */
  const startFetch = (at: Cursor) => {
    const page = fetchPage(at, passSignal.signal);
    // Observed at once: a prefetch that fails while the page before it is written is not unhandled.
    page.catch(() => undefined);
    return {
      page,
      cancel: async () => {
        stopPass.abort();
        await page.catch(() => undefined);
      },
    };
  };

  /** Saves the cursor after the pages upserted so far, once `flush` has made them durable. */
  const saveProgress = async () => {
    if (options.dryRun || unsaved === undefined) return;
    await options.flush?.();
    const progress: SyncProgress = {
      updatedAfter,
      nextCheckpoint,
      syncToken: unsaved,
      pageSize: size,
      savedAt: new Date(now()).toISOString(),
    };
    await store.saveProgress(progress);
    unsaved = undefined;
    lastSavedAt = performance.now();
  };

  let inFlight = startFetch({ updatedAfter, syncToken: state.progress?.syncToken });
  try {
    for (;;) {
      let page: ProductSearchResponse;
      try {
        page = await inFlight.page;
      } catch (error) {
        if (!(error instanceof InvalidSyncTokenError) || restarts >= maxRestarts) throw error;
        // INVALID_SYNC_TOKEN can never succeed: discard the cursor, restart from the last committed checkpoint.
        restarts += 1;
        unsaved = undefined;
        updatedAfter = committed ?? EPOCH;
        if (!options.dryRun) await store.clearProgress();
        inFlight = startFetch({ updatedAfter, syncToken: undefined });
        continue;
      }
      // Step 5: a data array is success; an empty one is the end.
      const last = page.data.length === 0 || page.syncToken === null || page.syncToken === undefined;
      // Pipelining: the next page is asked for before this one is written, so the server's time overlaps
      // the writing. One request at a time still (spec 8); the pass never holds more than two pages.
      const next = last ? undefined : startFetch({ updatedAfter, syncToken: page.syncToken as string });
      try {
        if (page.data.length > 0) {
          await options.upsert(page.data);
          for (const product of page.data) upsertedIds.add(product.id);
        }
        pages += 1;
        options.onPage?.({ pages, products: upsertedIds.size, total: page.pagination?.total });
        if (next !== undefined) {
          unsaved = page.syncToken as string;
          if (performance.now() - lastSavedAt >= progressIntervalMs) await saveProgress();
        }
      } catch (error) {
        await next?.cancel();
        throw error;
      }
      if (next === undefined) break;
      inFlight = next;
    }
  } catch (error) {
    // The pages upserted so far stay done: the next run resumes after the last one (best effort; a
    // sink that cannot flush saves nothing, and the next run resumes from the last cursor saved).
    await saveProgress().catch(() => undefined);
    const cause =
      options.signal?.aborted && !(error instanceof CatalogError)
        ? new AbortError({ message: 'Aborted', cause: error })
        : error;
    // Step 4: any error aborts without committing.
    throw new SyncAbortedError(
      `Sync aborted without committing: ${cause instanceof Error ? cause.message : String(cause)}`,
      report(),
      cause,
    );
  } finally {
    passSignal.release();
  }
  // Step 4: commit only after a clean pass, every page written durably.
  if (!options.dryRun) {
    await options.flush?.();
    await store.commit(nextCheckpoint);
  }
  return { ...report(), checkpoint: options.dryRun ? null : nextCheckpoint };
}
