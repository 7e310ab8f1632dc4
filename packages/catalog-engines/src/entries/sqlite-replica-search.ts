import { join } from 'node:path';
import { openSqliteReplicaSearch, SEARCH_REPLICA_FILE_NAME } from '@catalog/search/engines';
import { replicaSearchEngine } from './replica-search-engine.ts';

/** The FTS5 engine in a file of this instance's own under DATA_DIR, following the records' feed. */
export const sqliteReplicaSearch = replicaSearchEngine('sqlite-replica', ({ location, options }, source) =>
  openSqliteReplicaSearch(
    { ...options, databasePath: join(location.dataDir, SEARCH_REPLICA_FILE_NAME) },
    source,
  ),
);
