import { brandSearchContract } from '../contract/brand-search.contract.ts';
import { productSearchContract } from '../contract/product-search.contract.ts';
import { productSearchSyncContract } from '../contract/product-search-sync.contract.ts';
import { postgresCatalogStore } from '../support/postgres-factory.ts';

productSearchContract(postgresCatalogStore);
productSearchSyncContract(postgresCatalogStore);
brandSearchContract(postgresCatalogStore);
