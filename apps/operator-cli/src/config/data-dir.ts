import { resolve } from 'node:path';

/** `--data-dir` wins, then DATA_DIR, then ./data (relative to where `pnpm catalog` runs). */
export function resolveDataDir(option: string | undefined): string {
  return resolve(option ?? process.env.DATA_DIR ?? './data');
}
