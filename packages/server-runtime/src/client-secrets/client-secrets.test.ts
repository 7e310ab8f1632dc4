import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirSecretError } from '../secrets/data-dir-secret.ts';
import { generateClientSecret, hashClientSecret, verifyClientSecret } from './client-secret.ts';
import { clientSecretPepperFile, loadClientSecretPepper } from './pepper.ts';

const pepper = Buffer.alloc(32, 7);

describe('client secrets', () => {
  it('are 256 random bits written as 43 base64url characters', () => {
    const secrets = new Set(Array.from({ length: 50 }, generateClientSecret));
    expect(secrets.size).toBe(50);
    for (const secret of secrets) {
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    }
  });

  it('are stored as a peppered HMAC that never contains the secret', () => {
    const secret = generateClientSecret();
    const hash = hashClientSecret(secret, pepper);
    expect(hash).toMatch(/^hmac-sha256:[A-Za-z0-9_-]{43}$/);
    expect(hash).not.toContain(secret);
    expect(hashClientSecret(secret, Buffer.alloc(32, 8))).not.toBe(hash);
  });

  it('verify only the exact secret: no stray whitespace, no other pepper, no garbage hash', () => {
    const secret = generateClientSecret();
    const hash = hashClientSecret(secret, pepper);
    expect(verifyClientSecret(secret, hash, pepper)).toBe(true);
    expect(verifyClientSecret(` ${secret}`, hash, pepper)).toBe(false);
    expect(verifyClientSecret(`${secret}\n`, hash, pepper)).toBe(false);
    expect(verifyClientSecret(secret, hash, Buffer.alloc(32, 8))).toBe(false);
    expect(verifyClientSecret(secret, 'short', pepper)).toBe(false);
    expect(verifyClientSecret('', hash, pepper)).toBe(false);
  });
});

describe('client-secret pepper', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pepper-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is created once in DATA_DIR with mode 0600 and read back unchanged', async () => {
    const first = await loadClientSecretPepper({ dataDir });
    expect(first).toHaveLength(32);
    expect((await stat(clientSecretPepperFile(dataDir))).mode & 0o777).toBe(0o600);
    expect(await loadClientSecretPepper({ dataDir })).toEqual(first);
  });

  it('is the same for every process that starts at the same moment (race-safe creation)', async () => {
    const peppers = await Promise.all(Array.from({ length: 8 }, () => loadClientSecretPepper({ dataDir })));
    for (const pepperRead of peppers) expect(pepperRead).toEqual(peppers[0]);
    expect(await readdir(join(dataDir, 'secrets'))).toEqual(['client-secret-pepper']);
  });

  it('comes from CLIENT_SECRET_PEPPER when set, without touching DATA_DIR', async () => {
    const override = 'x'.repeat(40);
    expect(await loadClientSecretPepper({ dataDir, override })).toEqual(Buffer.from(override));
    await expect(readFile(clientSecretPepperFile(dataDir))).rejects.toThrow(/ENOENT/);
  });

  it('refuses a damaged pepper file instead of silently replacing it', async () => {
    await loadClientSecretPepper({ dataDir });
    await writeFile(clientSecretPepperFile(dataDir), 'abc\n');
    await expect(loadClientSecretPepper({ dataDir })).rejects.toThrow(DataDirSecretError);
  });
});
