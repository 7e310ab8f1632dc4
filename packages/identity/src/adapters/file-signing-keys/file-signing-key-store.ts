import { pollKeySetVersion } from '../../keys/poll-key-set-version.ts';
import type { SigningKeySet } from '../../keys/signing-key-set.ts';
import { SigningKeySetChangedError } from '../../keys/signing-key-set-errors.ts';
import type {
  SigningKeyStore,
  SigningKeyWatcher,
  StoredSigningKeySet,
} from '../../ports/signing-key-store.ts';
import { withReplaceLock } from './replace-lock.ts';
import {
  createSigningKeyFileOnce,
  readSigningKeyFile,
  renameSigningKeyFile,
  signingKeyFileVersion,
} from './signing-key-file.ts';

/**
 * The embedded default's keys: one JSON file under DATA_DIR (mode 0600, folder 0700), shared by
 * every process on the machine that uses that DATA_DIR. The private keys are in clear, protected
 * by the file's mode like the SQLite file and the pepper beside it.
 */
export class FileSigningKeyStore implements SigningKeyStore {
  readonly place: string;

  constructor(file: string) {
    this.place = file;
  }

  read(): Promise<StoredSigningKeySet | undefined> {
    return readSigningKeyFile(this.place);
  }

  createOnce(set: SigningKeySet): Promise<StoredSigningKeySet> {
    return createSigningKeyFileOnce(this.place, set);
  }

  replace(current: StoredSigningKeySet, next: SigningKeySet): Promise<StoredSigningKeySet> {
    return withReplaceLock(this.place, async () => {
      if ((await signingKeyFileVersion(this.place)) !== current.version) {
        throw new SigningKeySetChangedError(this.place);
      }
      return { set: next, version: await renameSigningKeyFile(this.place, next) };
    });
  }

  watch(since: string | undefined, watcher: SigningKeyWatcher): () => void {
    return pollKeySetVersion({ readVersion: () => signingKeyFileVersion(this.place), since, watcher });
  }

  async close(): Promise<void> {
    // Nothing held open: each call reads or writes the file and is done.
  }
}
