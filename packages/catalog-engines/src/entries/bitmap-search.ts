import { join } from 'node:path';
import {
  openBitmapSearchOverRecords,
  openBitmapSearchOverReplica,
  SEARCH_REPLICA_FILE_NAME,
} from '@catalog/search/engines';
import { catalogDatabasePath } from '@catalog/store';
import { replicaSearchEngine } from './replica-search-engine.ts';

/**
 * The in-memory bitmap engine, fed by the records' change feed: over the embedded records it reads
 * pages from their own file; over PostgreSQL, from a replica file it keeps in step with the index.
 */
export const bitmapSearch = replicaSearchEngine('bitmap', ({ location, options }, source) =>
  location.engine === 'sqlite'
    ? openBitmapSearchOverRecords(catalogDatabasePath(location.dataDir), options)
    : openBitmapSearchOverReplica(join(location.dataDir, SEARCH_REPLICA_FILE_NAME), source, options),
);
