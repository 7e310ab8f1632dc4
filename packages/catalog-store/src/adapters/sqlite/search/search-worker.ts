// Runs searches on its own read connection, off the servers' event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../open-database.ts';
import { failureKind } from './engine-failures.ts';
import { runBrandSearch } from './run-brand-search.ts';
import { runProductSearch } from './run-product-search.ts';
import type { WorkerReply, WorkerRequest, WorkerSetup } from './worker-protocol.ts';

const port = parentPort;
if (port === null) throw new Error('search-worker must run as a worker thread');
const setup = workerData as WorkerSetup;
const db = openDatabase(setup.databasePath, { readOnly: true });

port.on('message', (request: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    const result =
      request.kind === 'products' ? runProductSearch(db, request.job) : runBrandSearch(db, request.job);
    reply = { id: request.id, ok: true, result };
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
