import type { BrandInput } from '../model/brand.ts';
import type { ReplicaBuildProgress } from '../model/replica-progress.ts';
import type { WebChannelInput } from '../model/web-channel.ts';
import type { AdminUserStore } from './admin-user-store.ts';
import type { AuditLog } from './audit-log.ts';
import type { BrandSearch } from './brand-search.ts';
import type { BrandStore } from './brand-store.ts';
import type { ChangeFeed } from './change-feed.ts';
import type { ClientStore } from './client-store.ts';
import type { ProductSearch } from './product-search.ts';
import type { ProductBatches, ProductStore } from './product-store.ts';
import type { WebChannelStore } from './web-channel-store.ts';
import type { WebhookStore } from './webhook-store.ts';

export interface CatalogueSnapshot {
  webChannels: WebChannelInput[];
  brands: BrandInput[];
  /** Batch after batch: a large snapshot is never held in memory whole. */
  products: ProductBatches;
}

/**
 * The records of the catalogue and everything that keeps them: what the token server needs, and
 * what the API writes. Each engine's adapter (one folder under adapters/) implements it whole.
 */
export interface RecordStore {
  readonly products: ProductStore;
  readonly brands: BrandStore;
  readonly webChannels: WebChannelStore;
  readonly clients: ClientStore;
  readonly adminUsers: AdminUserStore;
  /** The append-only audit trail; the other stores' writes append to it when given an AuditContext. */
  readonly audit: AuditLog;
  /** Every committed write of a product, brand, channel or client, in commit order. */
  readonly changes: ChangeFeed;
  /** Webhook subscriptions and the outbox of their deliveries, fed from `changes`. */
  readonly webhooks: WebhookStore;
  /**
   * Loads the snapshot in one transaction only when the catalogue has no product yet; returns
   * whether it did. Safe when several processes race at first start.
   */
  loadIfEmpty(snapshot: CatalogueSnapshot): Promise<boolean>;
  close(): Promise<void>;
}

/** Spec 4.1 and 5.x searches over the records, kept true to them by the search engine. */
export interface CatalogSearch {
  readonly productSearch: ProductSearch;
  readonly brandSearch: BrandSearch;
  /**
   * Maintenance after a bulk load (seed, a large import): merges what many write transactions left
   * fragmented in the search index. Searches are correct without it, only slower.
   */
  compactSearchIndex(): Promise<void>;
}

/** Everything both servers need from storage, opened once per process. */
export interface CatalogStore extends RecordStore, CatalogSearch {
  /**
   * A deployment whose search is a replica of its records (PostgreSQL): the replica's first catch-up,
   * until which no search is answered (null before it starts). Absent where search reads the records
   * themselves.
   */
  searchReplicaProgress?(): ReplicaBuildProgress | null;
}

/**
 * What a bulk load (seed, import) writes to: the records, and the search index's upkeep after it.
 * A deployment whose search indexes live elsewhere (PostgreSQL's replicas) compacts nothing here.
 */
export type LoadTarget = RecordStore & Pick<CatalogSearch, 'compactSearchIndex'>;
