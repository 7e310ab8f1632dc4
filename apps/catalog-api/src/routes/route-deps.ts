import type { CatalogStore } from '@catalog/store';
import type { CatalogApiConfig } from '../config/config.ts';
import type { RouteGuards } from '../http/contract-route.ts';

/** What every route module receives from createApp. */
export interface RouteDeps {
  readonly store: CatalogStore;
  readonly guards: RouteGuards;
  readonly config: CatalogApiConfig;
  /** The pepper that keys client-secret hashes. */
  readonly secretPepper: Uint8Array;
  readonly now: () => Date;
}
