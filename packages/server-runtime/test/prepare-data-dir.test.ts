import { chmod, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareDataDir } from '../src/index.ts';

let root: string;
let lines: Array<{ level: number; msg: string; dataDir?: string }>;
const logger = () =>
  pino(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    }),
  );

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'server-runtime-data-dir-'));
  lines = [];
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('DATA_DIR is private to the service user (issue 13)', () => {
  it('creates a missing DATA_DIR readable by its owner only (0700), parents included', async () => {
    const dataDir = join(root, 'nested', 'data');
    await prepareDataDir(dataDir, logger());
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    expect(lines).toEqual([]);
  });

  it('warns, naming the directory, when an existing DATA_DIR is open to other users, and leaves its mode alone', async () => {
    const dataDir = join(root, 'shared');
    await mkdir(dataDir);
    await chmod(dataDir, 0o755);
    await prepareDataDir(dataDir, logger());
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe(40);
    expect(lines[0]?.msg).toContain(dataDir);
    expect(lines[0]?.msg).toContain('chmod 700');
    expect((await stat(dataDir)).mode & 0o777).toBe(0o755);
  });

  it('says nothing about an existing DATA_DIR that only its owner can reach', async () => {
    const dataDir = join(root, 'private');
    await mkdir(dataDir);
    await chmod(dataDir, 0o700);
    await prepareDataDir(dataDir, logger());
    expect(lines).toEqual([]);
  });
});
