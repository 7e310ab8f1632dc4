import { brandSearchContract } from '../contract/brand-search.contract.ts';
import { productSearchContract } from '../contract/product-search.contract.ts';
import { productSearchSyncContract } from '../contract/product-search-sync.contract.ts';
import { naiveSearchStore } from './naive-store.ts';

productSearchContract(naiveSearchStore);
productSearchSyncContract(naiveSearchStore);
brandSearchContract(naiveSearchStore);
