import { brandSearchContract } from '../contract/brand-search.contract.ts';
import { productSearchContract } from '../contract/product-search.contract.ts';
import { productSearchSyncContract } from '../contract/product-search-sync.contract.ts';
import { sqliteStore } from '../support/sqlite-factory.ts';

productSearchContract(() => sqliteStore());
productSearchSyncContract(() => sqliteStore());
brandSearchContract(() => sqliteStore());
