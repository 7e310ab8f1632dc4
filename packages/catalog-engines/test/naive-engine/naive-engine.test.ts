// The search contract suites are @catalog/search's own tests, imported by path: they are test code
// (vitest), kept beside the semantics they pin, not an entry of the published package.
import { brandSearchContract } from '../../../catalog-search/test/contract/brand-search.contract.ts';
import { productSearchContract } from '../../../catalog-search/test/contract/product-search.contract.ts';
import { productSearchSyncContract } from '../../../catalog-search/test/contract/product-search-sync.contract.ts';
import { naiveSearchStore } from './naive-store.ts';

productSearchContract(naiveSearchStore);
productSearchSyncContract(naiveSearchStore);
brandSearchContract(naiveSearchStore);
