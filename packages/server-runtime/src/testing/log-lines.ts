import type { SpawnedService } from './spawn-service.ts';

/** One JSON line a server logged. */
export type LogLine = Readonly<Record<string, unknown>>;

/** The JSON lines the service logged so far (anything else it wrote is skipped). */
export function logLines(service: Pick<SpawnedService, 'output'>): LogLine[] {
  const lines: LogLine[] = [];
  for (const text of service.output().split('\n')) {
    if (!text.startsWith('{')) continue;
    try {
      lines.push(JSON.parse(text) as LogLine);
    } catch {
      // A line still being written, or not JSON.
    }
  }
  return lines;
}

/**
 * The first line the service logged that `match` accepts, as soon as it is written: a server's
 * output reaches the test after its reply may have, so a test waits for the line instead of
 * reading the output once. Rejects if the service exits first; otherwise the test's own time-out
 * bounds the wait.
 */
export function waitForLogLine(service: SpawnedService, match: (line: LogLine) => boolean): Promise<LogLine> {
  const found = () => logLines(service).find(match);
  const already = found();
  if (already !== undefined) return Promise.resolve(already);
  const { child } = service;
  return new Promise((resolve, reject) => {
    const check = () => {
      const line = found();
      if (line === undefined) return;
      stop();
      resolve(line);
    };
    const exited = () => {
      stop();
      reject(new Error(`exited before logging the line looked for:\n${service.output()}`));
    };
    const stop = () => {
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
      child.off('exit', exited);
    };
    // spawnService's own listeners were added first: the output already holds the new chunk.
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', exited);
  });
}
