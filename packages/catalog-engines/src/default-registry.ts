import type { EngineRegistry } from './engine-registry.ts';
import { bitmapSearch } from './entries/bitmap-search.ts';
import { postgresRecords } from './entries/postgres-records.ts';
import { sqliteFts5Search } from './entries/sqlite-fts5-search.ts';
import { sqliteRecords } from './entries/sqlite-records.ts';
import { sqliteReplicaSearch } from './entries/sqlite-replica-search.ts';

/** Every engine a deployment can name: the table configuration chooses from. */
export const defaultRegistry: EngineRegistry = {
  records: { sqlite: sqliteRecords, postgres: postgresRecords },
  search: new Map(
    [sqliteFts5Search, sqliteReplicaSearch, bitmapSearch].map((engine) => [engine.name, engine]),
  ),
};
