import { DatabaseSync } from 'node:sqlite';

export interface OpenDatabaseOptions {
  readOnly?: boolean;
}

/** Both servers and the CLI write to the same file; writers queue on the lock this long. */
const BUSY_TIMEOUT_MS = 15_000;

export function openDatabase(databasePath: string, options: OpenDatabaseOptions = {}): DatabaseSync {
  const readOnly = options.readOnly === true;
  const db = new DatabaseSync(databasePath, {
    readOnly,
    enableForeignKeyConstraints: true,
    timeout: BUSY_TIMEOUT_MS,
  });
  if (!readOnly) {
    // WAL lets readers (the search workers) keep a snapshot while one writer commits.
    db.exec('PRAGMA journal_mode = WAL');
    // NORMAL in WAL mode never corrupts on a process crash; only the last commits can be lost on power loss.
    db.exec('PRAGMA synchronous = NORMAL');
  }
  db.exec('PRAGMA cache_size = -65536');
  db.exec('PRAGMA mmap_size = 1073741824');
  db.exec('PRAGMA temp_store = MEMORY');
  return db;
}
