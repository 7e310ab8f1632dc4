// Runs searches on its own read connection, off the servers' event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { inReadTransaction, openDatabase } from '@catalog/store/sqlite-reading';
import { failureKind } from './engine-failures.ts';
import { caughtUpFacetMap } from './facet-map.ts';
import { readSearchDocuments } from './read-search-documents.ts';
import { RecordCache } from './record-cache.ts';
import { runBrandSearch } from './run-brand-search.ts';
import { type Hydrate, runProductSearch } from './run-product-search.ts';
import type { WorkerReply, WorkerRequest, WorkerSetup } from './worker-protocol.ts';

const port = parentPort;
if (port === null) throw new Error('search-worker must run as a worker thread');
const setup = workerData as WorkerSetup;
const db = openDatabase(setup.databasePath, { readOnly: true });
// Loaded now rather than by the first search that counts facets (0.2 s at 1M products).
try {
  inReadTransaction(db, () => caughtUpFacetMap(db));
} catch {
  // Left to that search, which tries again and reports a failure as an engine failure.
}
// Some 5 MB of records at most; emptied by any commit of another connection.
const records = new RecordCache(2000);
const hydrate: Hydrate = (connection, seqs) => records.read(connection, seqs);

function run(request: WorkerRequest): Extract<WorkerReply, { ok: true }>['result'] {
  switch (request.kind) {
    case 'products':
      return runProductSearch(db, request.job, hydrate);
    case 'product-documents': {
      const { view } = request;
      return runProductSearch(db, request.job, (connection, seqs) =>
        readSearchDocuments(connection, seqs, view, hydrate),
      );
    }
    case 'brands':
      return runBrandSearch(db, request.job);
  }
}

port.on('message', (request: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    reply = { id: request.id, ok: true, result: run(request) };
  } catch (error) {
    reply = {
      id: request.id,
      ok: false,
      kind: failureKind(error),
      message:
        error instanceof Error
          ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ''}`
          : String(error),
    };
  }
  port.postMessage(reply);
});
