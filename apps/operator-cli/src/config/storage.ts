import { resolve } from 'node:path';
import { EngineConfigurationError, selectEngines } from '@catalog/engines';
import type { StorageLocation } from '@catalog/store';
import { UsageError } from '../usage-error.ts';

type Env = Record<string, string | undefined>;

const set = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

/** `--data-dir` wins, then DATA_DIR, then ./data (relative to where `pnpm catalog` runs). */
export function resolveDataDir(option: string | undefined, env: Env = process.env): string {
  return resolve(option ?? set(env.DATA_DIR) ?? './data');
}

function postgresUrl(value: string): string {
  let valid = /^postgres(ql)?:\/\//.test(value);
  try {
    valid &&= new URL(value).hostname !== '';
  } catch {
    valid = false;
  }
  // The URL may carry a password: it is never repeated in the message.
  if (!valid) throw new UsageError('DATABASE_URL must be a postgres://user:password@host:port/database URL');
  return value;
}

/**
 * The catalogue the commands work on, as the servers find it: PostgreSQL when DATABASE_URL is set
 * (`--data-dir` then only matters to the commands that use files there, such as key rotation),
 * else the embedded database in the data directory. An unknown SEARCH_ENGINE is a usage error.
 */
export function resolveStorage(dataDirOption: string | undefined, env: Env = process.env): StorageLocation {
  const dataDir = resolveDataDir(dataDirOption, env);
  const url = set(env.DATABASE_URL);
  const location: StorageLocation =
    url === undefined
      ? { engine: 'sqlite', dataDir }
      : { engine: 'postgres', url: postgresUrl(url), dataDir };
  checkSearchEngine(location, set(env.SEARCH_ENGINE));
  return location;
}

/**
 * SEARCH_ENGINE, checked as the servers check it, so that a deployment's environment the servers
 * would refuse is refused here too (the commands themselves load records, not search).
 */
function checkSearchEngine(location: StorageLocation, searchEngine: string | undefined): void {
  try {
    selectEngines(location, searchEngine);
  } catch (error) {
    throw error instanceof EngineConfigurationError ? new UsageError(error.message) : error;
  }
}
