import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { secretVariable } from '../config/secret-variable.ts';

const PEPPER_BYTES = 32;
const MIN_OVERRIDE_LENGTH = 32;

/** Thrown when the pepper file exists but does not hold a usable pepper. */
export class ClientSecretPepperError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClientSecretPepperError';
  }
}

/** The variable both servers accept to supply the pepper instead of the file in DATA_DIR. */
export const clientSecretPepperEnv = z.object({
  CLIENT_SECRET_PEPPER: secretVariable(
    z
      .string()
      .min(MIN_OVERRIDE_LENGTH, `must be at least ${MIN_OVERRIDE_LENGTH} characters (use 32 random bytes)`),
  ).optional(),
});

export const clientSecretPepperFile = (dataDir: string) => join(dataDir, 'secrets', 'client-secret-pepper');

function decodePepper(text: string, file: string): Buffer {
  const pepper = Buffer.from(text.trim(), 'base64url');
  if (pepper.length < PEPPER_BYTES) {
    throw new ClientSecretPepperError(
      `${file} does not hold a ${PEPPER_BYTES}-byte base64url pepper; restore it from backup (every stored client secret depends on it)`,
    );
  }
  return pepper;
}

/**
 * The pepper that keys client-secret hashes: CLIENT_SECRET_PEPPER when set, else the file under
 * DATA_DIR, created on first use with mode 0600. Both servers may start together: each writes a
 * private temporary file and hard-links it into place, which fails when the other won, so exactly
 * one pepper ever exists and both read it.
 */
export async function loadClientSecretPepper(options: {
  readonly dataDir: string;
  readonly override?: string | undefined;
}): Promise<Buffer> {
  if (options.override !== undefined) return Buffer.from(options.override, 'utf8');
  const file = clientSecretPepperFile(options.dataDir);
  try {
    return decodePepper(await readFile(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(join(options.dataDir, 'secrets'), { recursive: true, mode: 0o700 });
  const staging = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(staging, `${randomBytes(PEPPER_BYTES).toString('base64url')}\n`, {
    mode: 0o600,
    flag: 'wx',
  });
  try {
    await link(staging, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(staging);
  }
  return decodePepper(await readFile(file, 'utf8'), file);
}
