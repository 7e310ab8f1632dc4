// "Nothing stored changes on a rejected request": a cheap marker of the records' last commit is read
// after every request, and only when it moved are the content tables compared with the last state
// known good. A commit that only moved usage counters or last-use times compares equal.
//
// The marker on SQLite is `PRAGMA data_version`, which moves on any other connection's commit. PostgreSQL
// has no per-database equivalent, so the marker is what every write of the compared tables moves: each
// runs in the store's write transaction, whose first statement moves write_clock.last_ts (committed
// with the write, rolled back with it); last_sequence moves with each record's feed entry. The audit
// trail's last id is read too: a refused sign-in or token request may append an event, which the
// marker then shows and the comparison (audit events are not content) lets pass. The only statements
// outside the write clock are the usage counter and last-use time, which are left out of the
// comparison anyway.
import type { StorageLocation } from '@catalog/store';
import { openStoreReader, type StoreReader, type StoreSnapshot } from './store-snapshot.ts';

const LAST_COMMIT: Readonly<Record<StorageLocation['engine'], string>> = {
  sqlite: 'PRAGMA data_version',
  postgres:
    'SELECT last_ts, last_sequence, (SELECT max(id) FROM audit_events) AS last_audit_event FROM write_clock',
};

export interface StoreGuard {
  /**
   * After a request: when it was rejected (`accepted` false), what is stored must equal the state
   * before it; when it was accepted, its changes become the new reference. Returns the differences
   * (empty when none).
   */
  after(accepted: boolean): Promise<string[]>;
  /** Takes the current state as the reference (after setup writes). */
  rebase(): Promise<void>;
  readonly reader: StoreReader;
  close(): Promise<void>;
}

export async function openStoreGuard(location: StorageLocation): Promise<StoreGuard> {
  const reader = await openStoreReader(location);
  const lastCommit = async () => JSON.stringify(await reader.all(LAST_COMMIT[reader.engine]));
  let marker = await lastCommit();
  let reference: StoreSnapshot = await reader.snapshot();

  return {
    reader,
    async after(accepted) {
      const now = await lastCommit();
      if (now === marker) return [];
      marker = now;
      const current = await reader.snapshot();
      const changes = accepted ? [] : reader.diff(reference, current);
      reference = current;
      return changes;
    },
    async rebase() {
      marker = await lastCommit();
      reference = await reader.snapshot();
    },
    close: () => reader.close(),
  };
}
