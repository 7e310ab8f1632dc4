import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseSigningKeySet } from '../../keys/parse-signing-key-set.ts';
import type { SigningKeySet } from '../../keys/signing-key-set.ts';
import { SigningKeySetError } from '../../keys/signing-key-set-errors.ts';
import type { StoredSigningKeySet } from '../../ports/signing-key-store.ts';

const PRIVATE = 0o600;

/** A file's version is its content's digest: unlike mtime, two replacements never share one. */
const versionOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64url');

async function readBytes(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Reads and validates the key set; undefined when the file does not exist yet. */
export async function readSigningKeyFile(file: string): Promise<StoredSigningKeySet | undefined> {
  const bytes = await readBytes(file);
  if (bytes === undefined) return undefined;
  return { set: parseSigningKeySet(file, bytes.toString('utf8')), version: versionOf(bytes) };
}

/** The file's version alone, what the watch polls; undefined when it does not exist. */
export async function signingKeyFileVersion(file: string): Promise<string | undefined> {
  const bytes = await readBytes(file);
  return bytes === undefined ? undefined : versionOf(bytes);
}

async function writeStaging(file: string, set: SigningKeySet): Promise<{ staging: string; version: string }> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const staging = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const bytes = Buffer.from(`${JSON.stringify(set, null, 2)}\n`, 'utf8');
  await writeFile(staging, bytes, { mode: PRIVATE, flag: 'wx' });
  return { staging, version: versionOf(bytes) };
}

/**
 * Writes the first key set unless another process already did (both may start together): the
 * hard link fails when the file exists, and then the winner's set is returned.
 */
export async function createSigningKeyFileOnce(
  file: string,
  set: SigningKeySet,
): Promise<StoredSigningKeySet> {
  const { staging } = await writeStaging(file, set);
  try {
    await link(staging, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(staging);
  }
  const stored = await readSigningKeyFile(file);
  if (stored === undefined) throw new SigningKeySetError(file, 'disappeared while being created');
  return stored;
}

/**
 * Replaces the key set in one rename, so a server reading the file never reads half of it. The
 * caller holds the replace lock (replace-lock.ts) and has checked the version under it.
 */
export async function renameSigningKeyFile(file: string, set: SigningKeySet): Promise<string> {
  const { staging, version } = await writeStaging(file, set);
  await rename(staging, file);
  return version;
}
