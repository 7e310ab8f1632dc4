// "Nothing stored changes on a rejected request": a read-only connection notices any commit by the
// servers (`PRAGMA data_version` moves), and only then the content tables are compared with the last
// state known good. A commit that only moved usage counters or last-use times compares equal.
import { openStoreReader, type StoreReader, type StoreSnapshot } from './store-snapshot.ts';

export interface StoreGuard {
  /**
   * After a request: when it was rejected (`accepted` false), what is stored must equal the state
   * before it; when it was accepted, its changes become the new reference. Returns the differences
   * (empty when none).
   */
  after(accepted: boolean): string[];
  /** Takes the current state as the reference (after setup writes). */
  rebase(): void;
  readonly reader: StoreReader;
  close(): void;
}

export function openStoreGuard(dataDir: string): StoreGuard {
  const reader = openStoreReader(dataDir);
  const dataVersion = () =>
    Number((reader.all('PRAGMA data_version')[0] as { data_version: number }).data_version);
  let version = dataVersion();
  let reference: StoreSnapshot = reader.snapshot();

  return {
    reader,
    after(accepted) {
      const now = dataVersion();
      if (now === version) return [];
      version = now;
      const current = reader.snapshot();
      const changes = accepted ? [] : reader.diff(reference, current);
      reference = current;
      return changes;
    },
    rebase() {
      version = dataVersion();
      reference = reader.snapshot();
    },
    close: () => reader.close(),
  };
}
