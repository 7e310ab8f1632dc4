import { join } from 'node:path';
import { openPostgresRecordStore } from '@catalog/store/postgres';
import {
  type OpenCatalogueOptions,
  openReplicatedSearch,
  openSqliteReplicaSearch,
  SEARCH_REPLICA_FILE_NAME,
  splitCatalogueOptions,
} from '../../src/engines/index.ts';

/**
 * PostgreSQL records with the SQLite replica under `dataDir`, wired as @catalog/engines'
 * `sqlite-replica` entry wires them (the registry package depends on this one, so its tests cannot
 * reach it from here).
 */
export async function openPostgresReplica(
  location: { readonly url: string; readonly dataDir: string },
  options: OpenCatalogueOptions,
) {
  const { engine, wiring } = splitCatalogueOptions(options);
  return openReplicatedSearch(
    await openPostgresRecordStore({ url: location.url }),
    (source) =>
      openSqliteReplicaSearch(
        { ...engine, databasePath: join(location.dataDir, SEARCH_REPLICA_FILE_NAME) },
        source,
      ),
    wiring,
  );
}
