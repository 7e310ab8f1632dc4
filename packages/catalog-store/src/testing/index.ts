// Helpers for the tests of this package and of the packages above it; not used at run time.

export { openStoreAt } from './open-store-at.ts';
export { aProduct } from './products.ts';
export { setUpRunDatabase } from './run-database.ts';
export type {
  RecordStoreFactory,
  RecordStoreHandle,
  StoreFactory,
  StoreHandle,
  StoreLocation,
} from './store-handles.ts';
export { TEST_SEARCH_TIMEOUT_MS, tempDataDir } from './temp-data-dir.ts';
export {
  createTestDatabase,
  createTestSchema,
  onDatabase,
  type TestDatabase,
  type TestSchema,
} from './test-database.ts';
