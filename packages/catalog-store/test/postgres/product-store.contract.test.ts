import { productStoreContract } from '../contract/product-store.contract.ts';
import { postgresStore } from '../support/postgres-factory.ts';

productStoreContract(postgresStore);
