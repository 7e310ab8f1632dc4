import {
  type ChangedRecords,
  type ProductRecord,
  type ProductView,
  SearchIncompleteError,
  type SnapshotBatch,
  SORT_FIELDS,
  type SortField,
} from '@catalog/store';
import type { EnginePage, ProductSearchJob, SearchEngine } from '../../engine/search-engine.ts';
import type { ReplicaTarget, SnapshotLoadProgress } from '../../follower/replica-target.ts';
import type { CatalogueFile } from './catalogue-file.ts';
import { CatalogueIndex } from './catalogue-index.ts';
import { type LocatedPage, locatePage } from './locate-page.ts';
import { sortKeyOf } from './sort-keys.ts';
import { SortOrder } from './sort-order.ts';

export const BITMAP_SEARCH_SOURCE = 'bitmap';

/** A page whose products the file has moved on for is located again, at most this many times. */
const LOCATE_ATTEMPTS = 3;
/** How long a search waits for the index to apply what the file shows before it locates again. */
const APPLY_WAIT_MS = 2000;

/** What the engine writes into besides its index: the replica file on PostgreSQL, nothing on SQLite. */
export interface AlongsideIndex {
  apply(records: ChangedRecords): Promise<void>;
  loadSnapshot?(
    snapshot: AsyncIterable<SnapshotBatch>,
    onProgress?: (progress: SnapshotLoadProgress) => void,
  ): Promise<void>;
}

/**
 * The bitmap engine: the catalogue's search structures in memory (catalogue-index.ts), one per
 * process, fed by the change feed; each page is located there and read from the catalogue file.
 */
export class BitmapEngine implements SearchEngine {
  readonly source = BITMAP_SEARCH_SOURCE;
  readonly #file: CatalogueFile;
  readonly #alongside: AlongsideIndex | null;
  #index = new CatalogueIndex();
  readonly #orders = new Map<SortField, SortOrder>();
  #applied = 0;
  /** Changes whenever a search could see another catalogue: the page cache's key. */
  #version = 0;
  readonly #applyWaiters = new Set<() => void>();

  constructor(file: CatalogueFile, alongside: AlongsideIndex | null) {
    this.#file = file;
    this.#alongside = alongside;
  }

  /** What the feed follower writes into. */
  readonly target: ReplicaTarget = {
    appliedSequence: async () => this.#applied,
    apply: async (records) => {
      await this.#alongside?.apply(records);
      this.#applyToIndex(records);
    },
    loadSnapshot: async (snapshot, onProgress) => {
      const index = new CatalogueIndex();
      index.text.setBulk(true);
      let through = 0;
      let loaded = 0;
      // Each part goes to the index once the file (if any) has taken it: one pass, one part held.
      const indexed = (async function* () {
        for await (const part of snapshot) {
          yield part;
          index.apply(part);
          through = part.through;
          loaded += part.products.length;
          onProgress?.({ phase: 'indexing', products: loaded, total: part.productCount });
        }
      })();
      const alongside = this.#alongside;
      if (alongside?.loadSnapshot !== undefined) await alongside.loadSnapshot(indexed);
      else for await (const _ of indexed);
      this.#replaceIndex(index, through);
    },
  };

  #applyToIndex(records: ChangedRecords): void {
    this.#index.apply(records);
    if (records.products.length + records.webChannels.length + records.brands.length > 0) this.#version += 1;
    this.#applied = records.through;
    for (const wake of this.#applyWaiters) wake();
    this.#applyWaiters.clear();
  }

  #replaceIndex(index: CatalogueIndex, through: number): void {
    index.text.setBulk(false);
    index.shrink();
    this.#index = index;
    this.#orders.clear();
    // Built now rather than by each sort's first search: about a second each at 1M products.
    for (const field of SORT_FIELDS) this.#order(field);
    this.#applied = through;
    this.#version += 1;
  }

  #order = (field: SortField): SortOrder => {
    let order = this.#orders.get(field);
    if (order === undefined) {
      order = new SortOrder(this.#index, sortKeyOf(this.#index, field));
      this.#orders.set(field, order);
    }
    return order;
  };

  #nextApply(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#applyWaiters.delete(wake);
        resolve();
      }, APPLY_WAIT_MS);
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      this.#applyWaiters.add(wake);
    });
  }

  async #page<Hit>(
    job: ProductSearchJob,
    read: (seqs: readonly number[], applied: number) => Hit[] | null,
  ): Promise<EnginePage<Hit>> {
    for (let attempt = 1; attempt <= LOCATE_ATTEMPTS; attempt += 1) {
      const { seqs, ...located }: LocatedPage = locatePage(this.#index, this.#order, job);
      const hits = read(seqs, this.#applied);
      if (hits !== null && hits.length === seqs.length) return { ...located, hits };
      if (attempt < LOCATE_ATTEMPTS) await this.#nextApply();
    }
    throw new SearchIncompleteError();
  }

  searchProducts(job: ProductSearchJob): Promise<EnginePage<ProductRecord>> {
    return this.#page(job, (seqs, applied) => this.#file.records(seqs, applied));
  }

  searchProductDocuments(job: ProductSearchJob, view: ProductView): Promise<EnginePage<string>> {
    return this.#page(job, (seqs, applied) => this.#file.documents(seqs, applied, view));
  }

  async searchBrands(job: Parameters<SearchEngine['searchBrands']>[0]) {
    return this.#file.brands(job);
  }

  catalogueVersion(): string {
    return String(this.#version);
  }

  /** Nothing to compact: the index is rebuilt at every start and its sort orders as they age. */
  async compactIndex(): Promise<void> {}

  async close(): Promise<void> {
    for (const wake of this.#applyWaiters) wake();
    this.#file.close();
  }
}
