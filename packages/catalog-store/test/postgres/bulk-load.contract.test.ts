import { bulkLoadContract, loadIfEmptyContract } from '../contract/bulk-load.contract.ts';
import { postgresStore } from '../support/postgres-factory.ts';
import { postgresBulkLoadEngine } from '../support/postgres-stored-state.ts';

bulkLoadContract(postgresBulkLoadEngine);
loadIfEmptyContract(postgresStore);
