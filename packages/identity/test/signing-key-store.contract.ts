import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateSigningKey } from '../src/keys/generate-signing-key.ts';
import type { SigningKeySet } from '../src/keys/signing-key-set.ts';
import { SigningKeySetChangedError } from '../src/keys/signing-key-set-errors.ts';
import type { SigningKeyStore, SigningKeyWatcher } from '../src/ports/signing-key-store.ts';

/** One place keys can live, fresh and empty, which several instances open. */
export interface KeyPlace {
  /** Another instance's handle on the place (another token server, `pnpm admin`). */
  open(): Promise<SigningKeyStore>;
  dispose(): Promise<void>;
}

const aSet = async (): Promise<SigningKeySet> => ({
  format: 1,
  keys: [await generateSigningKey('active', new Date())],
});

const withStaged = async (set: SigningKeySet): Promise<SigningKeySet> => ({
  format: 1,
  keys: [...set.keys, await generateSigningKey('staged', new Date())],
});

/** A watcher counting the changes it is told of. */
function counter(): SigningKeyWatcher & { changes: number; errors: unknown[] } {
  const watcher = {
    changes: 0,
    errors: [] as unknown[],
    onChange: () => {
      watcher.changes += 1;
    },
    onError: (error: unknown) => {
      watcher.errors.push(error);
    },
  };
  return watcher;
}

/** The watch polls about once a second; a loaded machine gets a generous deadline. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The rules every place the token server's keys can live in must keep (ports/signing-key-store.ts). */
export function signingKeyStoreContract(engine: string, freshPlace: () => Promise<KeyPlace>): void {
  describe(`signing-key store contract: ${engine}`, () => {
    let place: KeyPlace;
    let handles: SigningKeyStore[];
    let stops: (() => void)[];
    const instance = async () => {
      const handle = await place.open();
      handles.push(handle);
      return handle;
    };
    const watch = (handle: SigningKeyStore, since: string | undefined, watcher: SigningKeyWatcher) => {
      stops.push(handle.watch(since, watcher));
    };

    beforeEach(async () => {
      place = await freshPlace();
      handles = [];
      stops = [];
    });
    afterEach(async () => {
      for (const stop of stops) stop();
      await Promise.all(handles.map((handle) => handle.close()));
      await place.dispose();
    });

    it('holds no set until one is created', async () => {
      expect(await (await instance()).read()).toBeUndefined();
    });

    it('createOnce from instances starting together stores one set, and every instance leaves with it', async () => {
      const instances = await Promise.all(Array.from({ length: 4 }, () => instance()));
      const candidates = await Promise.all(instances.map(() => aSet()));
      const created = await Promise.all(
        instances.map((handle, index) => handle.createOnce(candidates[index] as SigningKeySet)),
      );
      const winner = created[0];
      expect(candidates).toContainEqual(winner?.set);
      for (const stored of created) expect(stored).toEqual(winner);
      expect(await instances[3]?.read()).toEqual(winner);
    });

    it('replace from the version read stores the next set, which another instance reads under a new version', async () => {
      const [rotator, server] = await Promise.all([instance(), instance()]);
      const first = await (rotator as SigningKeyStore).createOnce(await aSet());
      const next = await withStaged(first.set);
      const replaced = await (rotator as SigningKeyStore).replace(first, next);
      expect(replaced.set).toEqual(next);
      expect(replaced.version).not.toBe(first.version);
      expect(await server?.read()).toEqual(replaced);
    });

    it('replace is a compare-and-set: of two rotations from the same read one is stored, the other refused with nothing written', async () => {
      const [one, other] = await Promise.all([instance(), instance()]);
      const first = await (one as SigningKeyStore).createOnce(await aSet());
      const read = await other?.read();
      const [mine, theirs] = [await withStaged(first.set), await withStaged(first.set)];
      const outcomes = await Promise.allSettled([
        (one as SigningKeyStore).replace(first, mine),
        (other as SigningKeyStore).replace(read as typeof first, theirs),
      ]);
      const stored = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(stored).toHaveLength(1);
      expect(refused.map((outcome) => outcome.reason)).toEqual([expect.any(SigningKeySetChangedError)]);
      const kept = (await one?.read())?.set;
      expect(kept).toEqual(outcomes[0]?.status === 'fulfilled' ? mine : theirs);
      // The loser's read is stale for good: retried as it was, it is refused again.
      const loser =
        outcomes[0]?.status === 'fulfilled' ? (other as SigningKeyStore) : (one as SigningKeyStore);
      await expect(loser.replace(first, await withStaged(first.set))).rejects.toBeInstanceOf(
        SigningKeySetChangedError,
      );
      expect((await one?.read())?.set).toEqual(kept);
    });

    it('a watch reports a replacement by another instance, and one made after the version it was given but before it started', async () => {
      const [server, rotator] = await Promise.all([instance(), instance()]);
      const loaded = await (server as SigningKeyStore).createOnce(await aSet());
      const rotated = await (rotator as SigningKeyStore).replace(loaded, await withStaged(loaded.set));
      const watcher = counter();
      watch(server as SigningKeyStore, loaded.version, watcher);
      await until(() => watcher.changes === 1, 'the replacement before the watch started was reported');
      await (rotator as SigningKeyStore).replace(rotated, await aSet());
      await until(() => watcher.changes === 2, 'the replacement during the watch was reported');
      expect(watcher.errors).toEqual([]);
    });
  });
}
