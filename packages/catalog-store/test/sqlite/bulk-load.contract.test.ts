import { bulkLoadContract, loadIfEmptyContract } from '../contract/bulk-load.contract.ts';
import { sqliteStore } from '../support/sqlite-factory.ts';
import { sqliteBulkLoadEngine } from '../support/sqlite-stored-state.ts';

bulkLoadContract(sqliteBulkLoadEngine);
loadIfEmptyContract(() => sqliteStore());
