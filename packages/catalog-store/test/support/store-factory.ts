import type { CatalogStore } from '../../src/index.ts';

/** A fresh, empty, migrated store per call; `dispose` closes it and removes its files. */
export interface StoreHandle {
  store: CatalogStore;
  dispose(): Promise<void>;
}

export type StoreFactory = () => Promise<StoreHandle>;
