import type { SigningKeySet } from '../keys/signing-key-set.ts';

/** A key set with the version it was read at, which a replacement of it names. */
export interface StoredSigningKeySet {
  readonly set: SigningKeySet;
  /** Opaque; another value once the stored set has been replaced. */
  readonly version: string;
}

/** What a watch reports. */
export interface SigningKeyWatcher {
  /** The stored set's version differs from the one last seen: read it again. */
  onChange(): void;
  /** Where the set lives could not be asked; once per outage, the watch goes on asking. */
  onError(error: unknown): void;
}

/**
 * Where a deployment's signing keys live: the file under DATA_DIR on the embedded default
 * (adapters/file-signing-keys/), the shared store on PostgreSQL so that every instance signs and
 * publishes the same keys (adapters/shared-signing-keys/). Every adapter passes
 * test/signing-key-store.contract.ts.
 */
export interface SigningKeyStore {
  /** Where the set is, for messages: the file's path, or the database named without credentials. */
  readonly place: string;
  /** The stored set; undefined until the first token server has created one. */
  read(): Promise<StoredSigningKeySet | undefined>;
  /**
   * Stores `set` unless one exists already, which then stays: instances starting together race
   * here and all leave with the winner's set, which this returns.
   */
  createOnce(set: SigningKeySet): Promise<StoredSigningKeySet>;
  /**
   * Compare-and-set: stores `next` only while the stored set is still `current`'s version, else
   * throws SigningKeySetChangedError and writes nothing, so two rotations at once cannot lose one.
   */
  replace(current: StoredSigningKeySet, next: SigningKeySet): Promise<StoredSigningKeySet>;
  /**
   * Asks about once a second whether the stored version still is `since` (or the one last
   * reported), so a replacement by any process, on any machine sharing the store, is noticed
   * within about a second. Returns the stop.
   */
  watch(since: string | undefined, watcher: SigningKeyWatcher): () => void;
  close(): Promise<void>;
}
