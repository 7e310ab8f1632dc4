import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirSecretError } from './data-dir-secret.ts';
import { loadSyncTokenSecret, syncTokenSecretFile } from './sync-token-secret.ts';

describe('the syncToken key', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sync-token-secret-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('is 32 random bytes created once in DATA_DIR, readable by its owner only, and read back unchanged', async () => {
    const [first, racing] = await Promise.all([
      loadSyncTokenSecret({ dataDir }),
      loadSyncTokenSecret({ dataDir }),
    ]);
    expect(first).toHaveLength(32);
    expect(racing).toEqual(first);
    expect(await loadSyncTokenSecret({ dataDir })).toEqual(first);
    expect((await stat(syncTokenSecretFile(dataDir))).mode & 0o777).toBe(0o600);
  });

  it('comes from SYNC_TOKEN_SECRET when set, so that several instances share it, without touching DATA_DIR', async () => {
    const override = 'k'.repeat(40);
    expect(await loadSyncTokenSecret({ dataDir, override })).toEqual(Buffer.from(override));
    await expect(readFile(syncTokenSecretFile(dataDir))).rejects.toThrow(/ENOENT/);
  });

  it('refuses a damaged key file instead of silently replacing it', async () => {
    await loadSyncTokenSecret({ dataDir });
    await writeFile(syncTokenSecretFile(dataDir), 'abc\n');
    await expect(loadSyncTokenSecret({ dataDir })).rejects.toThrow(DataDirSecretError);
  });
});
