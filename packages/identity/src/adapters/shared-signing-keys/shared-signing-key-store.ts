import type { KeyObject } from 'node:crypto';
import type { SealedKeySet, SigningKeySetStore } from '@catalog/store';
import { parseSigningKeySet } from '../../keys/parse-signing-key-set.ts';
import { pollKeySetVersion } from '../../keys/poll-key-set-version.ts';
import type { SigningKeySet } from '../../keys/signing-key-set.ts';
import { SigningKeySetChangedError, SigningKeySetError } from '../../keys/signing-key-set-errors.ts';
import type {
  SigningKeyStore,
  SigningKeyWatcher,
  StoredSigningKeySet,
} from '../../ports/signing-key-store.ts';
import { keySetSealingKey } from '../../secrets/pepper-derived-keys.ts';
import { openSealedKeySet, sealKeySet } from './seal-key-set.ts';

/**
 * The keys of a deployment whose records are shared (PostgreSQL): one set for every instance, in
 * the store's signing-key record (`SigningKeySetStore`), sealed here before it leaves the token
 * server and opened here after it comes back, so the store, its dumps and `pnpm catalog copy` only
 * ever carry ciphertext. Its version is the record's: 1 at creation, one more per replacement.
 */
export class SharedSigningKeyStore implements SigningKeyStore {
  readonly place: string;
  readonly #records: SigningKeySetStore;
  readonly #key: KeyObject;

  constructor(options: { records: SigningKeySetStore; pepper: Uint8Array; place: string }) {
    this.#records = options.records;
    this.#key = keySetSealingKey(options.pepper);
    this.place = options.place;
  }

  #open(stored: SealedKeySet): StoredSigningKeySet {
    const text = openSealedKeySet(stored.sealed, this.#key, stored.version);
    if (text === undefined) {
      throw new SigningKeySetError(
        this.place,
        `version ${stored.version} does not open with this deployment's client-secret pepper (CLIENT_SECRET_PEPPER, else DATA_DIR/secrets/client-secret-pepper): every token server and \`pnpm admin\` must use the one the token servers have, and the row must not be altered`,
      );
    }
    return { set: parseSigningKeySet(this.place, text), version: String(stored.version) };
  }

  async read(): Promise<StoredSigningKeySet | undefined> {
    const stored = await this.#records.read();
    return stored === undefined ? undefined : this.#open(stored);
  }

  async createOnce(set: SigningKeySet): Promise<StoredSigningKeySet> {
    return this.#open(await this.#records.createOnce(sealKeySet(set, this.#key, 1)));
  }

  async replace(current: StoredSigningKeySet, next: SigningKeySet): Promise<StoredSigningKeySet> {
    const expected = Number(current.version);
    const stored = await this.#records.replace(expected, sealKeySet(next, this.#key, expected + 1));
    if (!stored) throw new SigningKeySetChangedError(this.place);
    return { set: next, version: String(expected + 1) };
  }

  watch(since: string | undefined, watcher: SigningKeyWatcher): () => void {
    const readVersion = async () => {
      const version = await this.#records.version();
      return version === 0 ? undefined : String(version);
    };
    return pollKeySetVersion({ readVersion, since, watcher });
  }

  close(): Promise<void> {
    return this.#records.close();
  }
}
