/** The token server's key set as the store keeps it: bytes it cannot read, and their version. */
export interface SealedKeySet {
  /** 1 for the first set; each replacement adds one. */
  readonly version: number;
  /** Opaque to the store: the token server seals the set bound to this version. */
  readonly sealed: Uint8Array;
}

/**
 * Where a deployment whose records are shared (PostgreSQL) keeps the token server's signing keys,
 * one set for every instance. The store never sees key material: the token server seals the set
 * before it comes here and opens it after. The embedded default keeps its key file under DATA_DIR
 * instead and has no adapter of this port.
 */
export interface SigningKeySetStore {
  /** The stored set; undefined until the first token server has created one. */
  read(): Promise<SealedKeySet | undefined>;
  /** The stored set's version alone (0 when there is none): what each instance polls. */
  version(): Promise<number>;
  /**
   * Stores `sealed` as version 1 unless a set exists already, which then stays (instances starting
   * together race here); returns the set stored, the winner's.
   */
  createOnce(sealed: Uint8Array): Promise<SealedKeySet>;
  /**
   * Compare-and-set: stores `sealed` as version `expectedVersion + 1` only while the stored set is
   * still at `expectedVersion`. False when another replacement came first: nothing was written.
   */
  replace(expectedVersion: number, sealed: Uint8Array): Promise<boolean>;
  close(): Promise<void>;
}
