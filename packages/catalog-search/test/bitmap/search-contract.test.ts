import { brandSearchContract } from '../contract/brand-search.contract.ts';
import { productSearchContract } from '../contract/product-search.contract.ts';
import { productSearchSyncContract } from '../contract/product-search-sync.contract.ts';
import { bitmapOverPostgres, bitmapOverSqlite } from '../support/bitmap-factory.ts';

productSearchContract(bitmapOverSqlite);
productSearchSyncContract(bitmapOverSqlite);
brandSearchContract(bitmapOverSqlite);
productSearchContract(bitmapOverPostgres);
productSearchSyncContract(bitmapOverPostgres);
brandSearchContract(bitmapOverPostgres);
