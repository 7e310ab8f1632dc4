import { describeRecords, EngineConfigurationError, openLoadTarget } from '@catalog/engines';
import type { LoadTarget, StorageLocation } from '@catalog/store';
import { UsageError } from './usage-error.ts';

/** A configuration the engines refuse is the operator's to fix: reported as a usage error. */
export async function asUsageError<T>(opening: Promise<T>): Promise<T> {
  try {
    return await opening;
  } catch (error) {
    throw error instanceof EngineConfigurationError ? new UsageError(error.message) : error;
  }
}

/**
 * Opens the catalogue, creating and migrating it on first use: the records engine's load target,
 * whose search index (where it has one in the records' file) the load compacts at its end.
 */
export function openCatalog(location: StorageLocation): Promise<LoadTarget> {
  return asUsageError(openLoadTarget(location));
}

/** Where the catalogue is, for messages. The PostgreSQL URL is not shown: it may carry a password. */
export function describeLocation(location: StorageLocation): string {
  return describeRecords(location);
}
