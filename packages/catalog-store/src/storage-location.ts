/**
 * Where a deployment keeps its catalogue: the embedded default (one SQLite file under `dataDir`),
 * or PostgreSQL (`DATABASE_URL`), with each instance's search replica under its own `dataDir`.
 */
export type StorageLocation =
  | { engine: 'sqlite'; dataDir: string }
  | { engine: 'postgres'; url: string; dataDir: string };

/** The location a server's configuration names: DATABASE_URL when set, else the embedded default. */
export function storageLocation(config: {
  dataDir: string;
  databaseUrl: string | undefined;
}): StorageLocation {
  return config.databaseUrl === undefined
    ? { engine: 'sqlite', dataDir: config.dataDir }
    : { engine: 'postgres', url: config.databaseUrl, dataDir: config.dataDir };
}
