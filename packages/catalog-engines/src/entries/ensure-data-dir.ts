import { mkdirSync } from 'node:fs';
import { EngineConfigurationError } from '../engine-configuration-error.ts';

/** DATA_DIR, created owner-only on first use; one that cannot be created is a configuration error. */
export function ensureDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new EngineConfigurationError(
      `cannot create the data directory ${dataDir}: ${(error as Error).message}`,
    );
  }
}
