import type { CatalogStore, RecordStore } from '../index.ts';

/** Where a handle's store lives, for a child process to open the same store (`openStoreAt`). */
export type StoreLocation =
  | { engine: 'sqlite'; databasePath: string }
  | { engine: 'postgres'; url: string; schema: string };

/** A fresh, empty, migrated record store per call; `dispose` closes it and removes what it made. */
export interface RecordStoreHandle {
  store: RecordStore;
  location: StoreLocation;
  dispose(): Promise<void>;
}

export type RecordStoreFactory = () => Promise<RecordStoreHandle>;

/** The same with the search engine: the embedded engine's whole CatalogStore. */
export interface StoreHandle extends RecordStoreHandle {
  store: CatalogStore;
}

export type StoreFactory = () => Promise<StoreHandle>;
