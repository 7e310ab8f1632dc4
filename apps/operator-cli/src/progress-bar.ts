import { SingleBar } from 'cli-progress';
import type { Output } from './output.ts';

export interface Progress {
  /** `detail` replaces the text after the bar (counts, phase). */
  update(value: number, total: number, detail: string): void;
  stop(): void;
}

const silent: Progress = { update: () => undefined, stop: () => undefined };

/** A bar on stderr when it is a terminal; nothing otherwise (CI logs, pipes). */
export function progressBar(output: Output, label: string): Progress {
  if (!output.interactive) return silent;
  const bar = new SingleBar({
    format: `${label} [{bar}] {percentage}% | {detail}`,
    stream: process.stderr,
    hideCursor: true,
  });
  let started = false;
  return {
    update(value, total, detail) {
      if (!started) {
        bar.start(total, value, { detail });
        started = true;
      }
      bar.setTotal(total);
      bar.update(value, { detail });
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}
