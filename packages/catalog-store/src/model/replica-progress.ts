/**
 * How far a snapshot load into a replica has come: `loading` while its products are written
 * (`products` of `total`), then `indexing` while the search rows are derived from them
 * (`products` documents of `total` written).
 */
export interface SnapshotLoadProgress {
  phase: 'loading' | 'indexing';
  products: number;
  total: number;
}

/**
 * The first catch-up of a replica, until which it cannot answer a complete search: `snapshot` while
 * a new replica loads the whole source (`loading`, then `indexing`), `feed` while one kept from an
 * earlier run applies what the feed holds since. `perSecond` and `expectedEndAt` are
 * estimated from the current phase's pace once it has made some.
 */
export interface ReplicaBuildProgress {
  state: 'building' | 'built';
  phase: 'snapshot-loading' | 'snapshot-indexing' | 'feed' | 'done';
  startedAt: string;
  /** What `applied`, `total` and `perSecond` count: products of a snapshot, or entries of the feed. */
  unit: 'products' | 'feed entries';
  applied: number;
  total: number | null;
  perSecond: number | null;
  expectedEndAt: string | null;
}
