import { closeSync, constants, fchmodSync, openSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';

export interface OpenDatabaseOptions {
  readOnly?: boolean;
}

/** Both servers and the CLI write to the same file; writers queue on the lock this long. */
const BUSY_TIMEOUT_MS = 15_000;

const OWNER_READ_WRITE = 0o600;

/**
 * Creates a missing database file empty (a valid empty SQLite database) and readable by its owner
 * only: it holds password and secret hashes. SQLite gives the -wal and -shm files it creates the
 * main file's mode, so they follow; left to itself it would create all three 0644. fchmod, unlike
 * the mode given to open, is not filtered by the umask. An existing file keeps its mode.
 */
function createPrivately(databasePath: string): void {
  let fd: number;
  try {
    fd = openSync(databasePath, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, OWNER_READ_WRITE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  try {
    fchmodSync(fd, OWNER_READ_WRITE);
  } finally {
    closeSync(fd);
  }
}

export function openDatabase(databasePath: string, options: OpenDatabaseOptions = {}): DatabaseSync {
  const readOnly = options.readOnly === true;
  if (!readOnly) createPrivately(databasePath);
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
  // 16 MiB: bounded memory at any catalogue size (issue 14: the API within 512 MB at 1M products).
  // The writer's transactions in the servers are short; a bulk load raises it for itself
  // (load-cache.ts).
  db.exec('PRAGMA cache_size = -16384');
  if (readOnly) {
    // The search workers' connections, one per worker in the API process. Mapped pages count in
    // the process's RSS once per connection that touched them (1 GiB each at 1M products), where
    // read(2) leaves them to the kernel's page cache; sorts of large match sets spill to temporary
    // files past the page cache instead of growing the heap.
    db.exec('PRAGMA mmap_size = 0');
    db.exec('PRAGMA temp_store = FILE');
  } else {
    db.exec('PRAGMA mmap_size = 1073741824');
    db.exec('PRAGMA temp_store = MEMORY');
  }
  return db;
}
