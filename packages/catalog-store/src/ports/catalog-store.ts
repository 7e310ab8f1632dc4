import type { BrandInput } from '../model/brand.ts';
import type { WebChannelInput } from '../model/web-channel.ts';
import type { AdminUserStore } from './admin-user-store.ts';
import type { AuditLog } from './audit-log.ts';
import type { BrandSearch } from './brand-search.ts';
import type { BrandStore } from './brand-store.ts';
import type { ClientStore } from './client-store.ts';
import type { ProductSearch } from './product-search.ts';
import type { ProductBatches, ProductStore } from './product-store.ts';
import type { WebChannelStore } from './web-channel-store.ts';

export interface CatalogueSnapshot {
  webChannels: WebChannelInput[];
  brands: BrandInput[];
  /** Batch after batch: a large snapshot is never held in memory whole. */
  products: ProductBatches;
}

/** Everything both servers need from storage, opened once per process. */
export interface CatalogStore {
  readonly products: ProductStore;
  readonly brands: BrandStore;
  readonly webChannels: WebChannelStore;
  readonly clients: ClientStore;
  readonly adminUsers: AdminUserStore;
  /** The append-only audit trail; the other stores' writes append to it when given an AuditContext. */
  readonly audit: AuditLog;
  readonly productSearch: ProductSearch;
  readonly brandSearch: BrandSearch;
  /**
   * Loads the snapshot in one transaction only when the catalogue has no product yet; returns
   * whether it did. Safe when several processes race at first start.
   */
  loadIfEmpty(snapshot: CatalogueSnapshot): Promise<boolean>;
  /**
   * Maintenance after a bulk load (seed, a large import): merges what many write transactions left
   * fragmented in the search index. Searches are correct without it, only slower.
   */
  compactSearchIndex(): Promise<void>;
  close(): Promise<void>;
}
