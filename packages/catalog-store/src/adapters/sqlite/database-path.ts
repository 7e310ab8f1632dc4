import { join } from 'node:path';

export const DATABASE_FILE_NAME = 'catalog.sqlite';

export function catalogDatabasePath(dataDir: string): string {
  return join(dataDir, DATABASE_FILE_NAME);
}
