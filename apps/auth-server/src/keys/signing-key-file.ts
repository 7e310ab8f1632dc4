import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type SigningKeySet, signingKeySetSchema } from './signing-key-set.ts';

/** The signing-key file exists but cannot be used; the server must not start with other keys. */
export class SigningKeyFileError extends Error {
  constructor(file: string, problem: string, options?: ErrorOptions) {
    super(`${file}: ${problem}`, options);
    this.name = 'SigningKeyFileError';
  }
}

const PRIVATE = 0o600;

/** Reads and validates the key set; undefined when the file does not exist yet. */
export async function readSigningKeySet(file: string): Promise<SigningKeySet | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new SigningKeyFileError(file, 'is not valid JSON', { cause });
  }
  const parsed = signingKeySetSchema.safeParse(json);
  if (!parsed.success) {
    throw new SigningKeyFileError(file, parsed.error.issues.map((issue) => issue.message).join('; '));
  }
  return parsed.data;
}

async function writeStaging(file: string, set: SigningKeySet): Promise<string> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const staging = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(staging, `${JSON.stringify(set, null, 2)}\n`, { mode: PRIVATE, flag: 'wx' });
  return staging;
}

/**
 * Writes the first key set unless another process already did (both may start together): the
 * hard link fails when the file exists, and then the winner's set is returned.
 */
export async function createSigningKeySetOnce(file: string, set: SigningKeySet): Promise<SigningKeySet> {
  const staging = await writeStaging(file, set);
  try {
    await link(staging, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(staging);
  }
  const stored = await readSigningKeySet(file);
  if (stored === undefined) throw new SigningKeyFileError(file, 'disappeared while being created');
  return stored;
}

/** Replaces the key set in one rename, so the server watching the file never reads half of it. */
export async function replaceSigningKeySet(file: string, set: SigningKeySet): Promise<void> {
  await rename(await writeStaging(file, set), file);
}
