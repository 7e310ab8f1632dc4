import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPostgresSigningKeySetStore } from '../../src/adapters/postgres/index.ts';
import type { SigningKeySetStore } from '../../src/index.ts';
import { freshSchema } from '../support/postgres-factory.ts';

const blob = (text: string) => new Uint8Array(Buffer.from(text));
const text = (bytes: Uint8Array | undefined) =>
  bytes === undefined ? undefined : Buffer.from(bytes).toString();

describe('the signing-key set on PostgreSQL (migration 2)', () => {
  let place: Awaited<ReturnType<typeof freshSchema>>;
  let opened: SigningKeySetStore[];
  /** Another instance's handle: a pool of its own on the same schema. */
  const instance = async () => {
    const store = await openPostgresSigningKeySetStore({ url: place.url, schema: place.schema });
    opened.push(store);
    return store;
  };

  beforeEach(async () => {
    place = await freshSchema();
    opened = [];
  });
  afterEach(async () => {
    await Promise.all(opened.map((store) => store.close()));
    await place.drop();
  });

  it('holds no set until a token server creates one: read gives nothing, the version is 0', async () => {
    const store = await instance();
    expect(await store.read()).toBeUndefined();
    expect(await store.version()).toBe(0);
  });

  it('createOnce from instances starting together stores one set at version 1, and every one of them gets it', async () => {
    const stores = await Promise.all(Array.from({ length: 4 }, () => instance()));
    const created = await Promise.all(stores.map((store, index) => store.createOnce(blob(`set ${index}`))));
    const winner = text(created[0]?.sealed);
    expect(created.map((set) => [set.version, text(set.sealed)])).toEqual(created.map(() => [1, winner]));
    expect(text((await stores[3]?.read())?.sealed)).toBe(winner);
    expect(await stores[1]?.version()).toBe(1);
  });

  it('replace is a compare-and-set: of two replacements from the same version exactly one is stored, one version later', async () => {
    const [first, second] = await Promise.all([instance(), instance()]);
    await first?.createOnce(blob('v1'));
    const results = await Promise.all([
      first?.replace(1, blob('from first')),
      second?.replace(1, blob('from second')),
    ]);
    expect(results.filter((stored) => stored === true)).toHaveLength(1);
    const stored = await first?.read();
    expect(stored?.version).toBe(2);
    expect(text(stored?.sealed)).toBe(results[0] === true ? 'from first' : 'from second');
    // The loser read version 1: its write is refused, however often it retries with that version.
    expect(await second?.replace(1, blob('stale'))).toBe(false);
    expect(await second?.replace(2, blob('v3'))).toBe(true);
    expect(await first?.version()).toBe(3);
  });

  it('a close is idempotent, as the record stores are', async () => {
    const store = await instance();
    await store.close();
    await expect(store.close()).resolves.toBeUndefined();
  });
});
