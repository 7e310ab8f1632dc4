// The outbox's transactions on a database connection of their own, off the API's event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { openEmbeddedWebhookOutbox } from '@catalog/engines';
import type { OutboxThreadReply, OutboxThreadRequest, OutboxThreadSetup } from './outbox-thread-protocol.ts';

const port = parentPort;
if (port === null) throw new Error('outbox-thread must run as a worker thread');
const { location, writeShare } = workerData as OutboxThreadSetup;
const records = await openEmbeddedWebhookOutbox(location, { writeShare });

function answer(request: OutboxThreadRequest) {
  switch (request.method) {
    case 'deliveryRound':
      return records.webhooks.deliveryRound(request.round);
    case 'pruneDeliveries':
      return records.webhooks.pruneDeliveries(request.before, request.limit);
    case 'queueDepth':
      return records.webhooks.queueDepth();
  }
}

// One request at a time, in the order sent: the worker awaits each round before the next.
let queue = Promise.resolve();
port.on('message', (request: OutboxThreadRequest | 'close') => {
  if (request === 'close') {
    queue = queue.then(async () => {
      await records.close();
      port.close();
    });
    return;
  }
  queue = queue.then(async () => {
    let reply: OutboxThreadReply;
    try {
      const result = await answer(request);
      reply = { id: request.id, ok: true, result };
    } catch (error) {
      reply = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
});
port.postMessage('ready');
