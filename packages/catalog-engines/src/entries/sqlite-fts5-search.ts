import { openSqliteCatalogStore, splitCatalogueOptions } from '@catalog/search/engines';
import { catalogDatabasePath } from '@catalog/store';
import { EngineConfigurationError } from '../engine-configuration-error.ts';
import type { SearchEngine } from '../engine-registry.ts';

/** FTS5 in the records' own file, kept true by its triggers: only over the embedded records. */
export const sqliteFts5Search: SearchEngine = {
  name: 'sqlite-fts5',
  refusal: (location) =>
    location.engine === 'sqlite'
      ? undefined
      : `searches the records' own SQLite file, so it needs the embedded records (unset DATABASE_URL), or choose sqlite-replica`,
  openCatalogue: async ({ location, options }) => {
    // Reached only by a selection made without engineSelection, which refuses it at start-up.
    if (location.engine !== 'sqlite')
      throw new EngineConfigurationError('sqlite-fts5 needs the embedded records');
    const { engine } = splitCatalogueOptions(options);
    return openSqliteCatalogStore({ ...engine, databasePath: catalogDatabasePath(location.dataDir) });
  },
};
