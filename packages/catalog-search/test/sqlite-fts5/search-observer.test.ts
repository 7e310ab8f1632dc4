import { DatabaseSync } from 'node:sqlite';
import { IdentifierLookupIncompleteError, SearchTimeoutError } from '@catalog/store';
import { aProduct } from '@catalog/store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchPoolLoad, SearchPoolObserver } from '../../src/index.ts';
import { type SqliteStoreHandle, sqliteStore } from '../support/sqlite-factory.ts';

// What the server's metrics hear from the search pool: each search's kind, outcome and time, and
// the pool's load on demand. No Prometheus here: the observer is plain callbacks.

type Settled = Parameters<NonNullable<SearchPoolObserver['jobSettled']>>[0];

function recordingObserver() {
  const settled: Settled[] = [];
  let load: (() => SearchPoolLoad) | undefined;
  const observer: SearchPoolObserver = {
    watchLoad: (read) => {
      load = read;
    },
    jobSettled: (job) => settled.push(job),
  };
  return { observer, settled, load: () => load?.() };
}

describe('search pool observer', () => {
  let handle: SqliteStoreHandle | undefined;
  afterEach(async () => {
    await handle?.dispose();
    handle = undefined;
  });

  it('hears of every search once, by kind (text, identifier, browse, brand), completed, with its time', async () => {
    const recording = recordingObserver();
    handle = await sqliteStore({ searchObserver: recording.observer });
    await handle.store.products.upsertMany([aProduct({ name: 'cordless drill' })]);
    expect(recording.load()).toEqual({ queued: 0, busyWorkers: 0, workers: 0 });

    await handle.store.productSearch.search({ q: 'drill' });
    await handle.store.productSearch.search({ q: '--' });
    await handle.store.productSearch.search({});
    await handle.store.brandSearch.search({});

    expect(recording.settled.map(({ kind, outcome }) => ({ kind, outcome }))).toEqual([
      { kind: 'text', outcome: 'completed' },
      { kind: 'identifier', outcome: 'completed' },
      { kind: 'browse', outcome: 'completed' },
      { kind: 'brand', outcome: 'completed' },
    ]);
    for (const job of recording.settled) expect(job.seconds).toBeGreaterThan(0);
    // The whole pool starts with the first search; nothing is running or waiting once all answered.
    expect(recording.load()).toEqual({ queued: 0, busyWorkers: 0, workers: 2 });
  });

  it('reports a search past its budget as a time-out', async () => {
    const recording = recordingObserver();
    // 1 ms: the first search also waits for the workers to start, so it cannot make it.
    handle = await sqliteStore({ searchObserver: recording.observer, searchTimeoutMs: 1 });
    await expect(handle.store.productSearch.search({ q: 'drill' })).rejects.toBeInstanceOf(
      SearchTimeoutError,
    );
    expect(recording.settled).toEqual([{ kind: 'text', outcome: 'timeout', seconds: expect.any(Number) }]);
  });

  it('reports a search the engine could not complete as incomplete', async () => {
    const recording = recordingObserver();
    handle = await sqliteStore({ searchObserver: recording.observer });
    await handle.store.products.upsertMany([aProduct({ name: 'cordless drill' })]);
    // The identifier probe needs this index: without it the probe fails inside the worker.
    const db = new DatabaseSync(handle.databasePath);
    db.exec('DROP INDEX products_erp_code_key');
    db.close();
    await expect(handle.store.productSearch.search({ q: 'drill' })).rejects.toBeInstanceOf(
      IdentifierLookupIncompleteError,
    );
    expect(recording.settled).toEqual([{ kind: 'text', outcome: 'incomplete', seconds: expect.any(Number) }]);
  });
});
