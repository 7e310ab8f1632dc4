import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Thrown when a secret's file exists but does not hold a usable secret. */
export class DataDirSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirSecretError';
  }
}

export interface DataDirSecret {
  /** Where it lives, e.g. `<DATA_DIR>/secrets/client-secret-pepper`. */
  readonly file: string;
  readonly bytes: number;
  /** What depends on it, for the error that asks to restore a damaged file. */
  readonly dependents: string;
}

function decode(text: string, secret: DataDirSecret): Buffer {
  const value = Buffer.from(text.trim(), 'base64url');
  if (value.length < secret.bytes) {
    throw new DataDirSecretError(
      `${secret.file} does not hold a ${secret.bytes}-byte base64url secret; restore it from backup (${secret.dependents} depend on it)`,
    );
  }
  return value;
}

/**
 * A random secret kept in a file under DATA_DIR, created on first use with mode 0600. Both servers
 * (or several processes) may start together: each writes a private temporary file and hard-links
 * it into place, which fails when another won, so exactly one secret ever exists and all read it.
 */
export async function loadDataDirSecret(secret: DataDirSecret): Promise<Buffer> {
  try {
    return decode(await readFile(secret.file, 'utf8'), secret);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dirname(secret.file), { recursive: true, mode: 0o700 });
  const staging = `${secret.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(staging, `${randomBytes(secret.bytes).toString('base64url')}\n`, {
    mode: 0o600,
    flag: 'wx',
  });
  try {
    await link(staging, secret.file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(staging);
  }
  return decode(await readFile(secret.file, 'utf8'), secret);
}
