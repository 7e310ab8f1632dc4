// The files a run writes must have an existing, writable directory: a typo in a cron line is a
// configuration error (exit 78) named by its path, not a new directory tree and a silent full resync.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ConfigurationError } from '../errors.ts';

export async function requireWritableDirectory(option: string, path: string): Promise<void> {
  const directory = dirname(resolve(path));
  const info = await stat(directory).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) {
    throw new ConfigurationError({ message: `${option} ${path}: the directory ${directory} does not exist` });
  }
  await access(directory, constants.W_OK | constants.X_OK).catch(() => {
    throw new ConfigurationError({
      message: `${option} ${path}: the directory ${directory} is not writable`,
    });
  });
}
