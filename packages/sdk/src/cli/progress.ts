// The terminal progress bar, honest about what it knows: a percentage only when the pass started from
// the beginning and the server's total is exact; otherwise a count of the products this run wrote.
import { SingleBar } from 'cli-progress';
import { REPORTED_TOTAL_CAP } from '../contract-values.ts';

export interface Progress {
  page(event: { pages: number; products: number; total: number | undefined }): void;
  stop(): void;
}

export function createProgress(stream: NodeJS.WritableStream, options: { resumed: boolean }): Progress {
  let bar: SingleBar | undefined;
  return {
    page({ pages, products, total }) {
      // The total counts the whole pass; a resumed run does not know how many came before its cursor.
      const exact = !options.resumed && total !== undefined && total < REPORTED_TOTAL_CAP;
      if (bar === undefined) {
        bar = new SingleBar({
          stream,
          hideCursor: true,
          clearOnComplete: true,
          format: exact
            ? '{bar} {percentage}% {value}/{total} products'
            : `{value} products, page {pages}${options.resumed ? ' since the saved cursor' : ''}`,
        });
        bar.start(exact ? Math.max(total ?? 0, products) : 0, products, { pages });
      }
      if (exact) bar.setTotal(Math.max(total ?? 0, products));
      bar.update(products, { pages });
    },
    stop() {
      bar?.stop();
    },
  };
}
