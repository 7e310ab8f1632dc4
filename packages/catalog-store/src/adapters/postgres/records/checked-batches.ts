import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ProductInput } from '../../../model/product.ts';
import type { ProductBatches } from '../../../ports/product-store.ts';
import type { CheckedBatch } from '../../../write-rules/product-batch.ts';
import { type PreparedProduct, prepareProduct } from '../../../write-rules/product-write.ts';

/** Inputs checked between two turns of the event loop: some milliseconds of work. */
const SLICE = 250;

/** `checkBatch` a slice at a time; undefined once `stopped` says nobody waits for it any more. */
async function checkInSlices(
  inputs: readonly ProductInput[],
  stopped: () => boolean,
): Promise<CheckedBatch | undefined> {
  const products: PreparedProduct[] = [];
  for (let start = 0; start < inputs.length; start += SLICE) {
    if (start > 0) await nextTurn();
    if (stopped()) return undefined;
    for (const raw of inputs.slice(start, start + SLICE)) products.push(prepareProduct(raw));
  }
  return { raw: inputs, products };
}

/**
 * The batches, each checked as `checkBatch` checks it, one ahead: the next batch is read and
 * checked while the caller writes the current one. Checking costs about as much time as the
 * server's work on a batch, and the two overlap: the checks run a slice at a time, so the writer's
 * replies are handled between slices. A batch that fails its check fails where the caller asks
 * for it, after the batches before it; the source is closed when the caller stops early.
 */
export async function* checkedAhead(batches: ProductBatches): AsyncGenerator<CheckedBatch> {
  const source =
    Symbol.asyncIterator in batches ? batches[Symbol.asyncIterator]() : batches[Symbol.iterator]();
  let stopped = false;
  const read = async () => {
    if (stopped) return undefined;
    const step = await source.next();
    return step.done === true ? undefined : checkInSlices(step.value, () => stopped);
  };
  try {
    let upcoming = read();
    for (;;) {
      const current = await upcoming;
      if (current === undefined) return;
      // Started on the next turn, once the caller has sent the current batch's first statement.
      upcoming = nextTurn().then(read);
      // Awaited on the next round, or dropped if the caller stops first: never left unhandled.
      upcoming.catch(() => undefined);
      yield current;
    }
  } finally {
    stopped = true;
    await source.return?.();
  }
}
