// catalog-sync, run as a real process against both real servers.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../src/cli/exit-codes.ts';
import { type Credentials, type Stack, startStack } from './support/stack.ts';

const bin = fileURLToPath(new URL('../src/cli/bin.ts', import.meta.url));
let stack: Stack;
let credentials: Credentials;
let dir: string;
let caFile: string;
let counter = 0;

beforeAll(async () => {
  stack = await startStack({ demoProducts: 450 });
  credentials = await stack.credentials(['products.read']);
  dir = await mkdtemp(join(tmpdir(), 'sdk-cli-'));
  caFile = join(dir, 'ca.pem');
  await writeFile(caFile, stack.ca);
});
afterAll(async () => {
  await stack?.stop();
  await rm(dir, { recursive: true, force: true });
});

function start(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--conditions=source', bin, ...args], {
    env: { PATH: process.env.PATH ?? '', CATALOG_CLIENT_SECRET: credentials.clientSecret, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function run(args: string[], env: Record<string, string> = {}) {
  const child = start(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const [code] = (await once(child, 'exit')) as [number];
  return { code, stdout, stderr };
}

function files(extension = 'ndjson') {
  counter += 1;
  return {
    out: join(dir, `products-${counter}.${extension}`),
    checkpoint: join(dir, `state-${counter}.json`),
  };
}

const common = () => [
  '--base-url',
  stack.baseUrl,
  '--auth-url',
  stack.authUrl,
  '--client-id',
  credentials.clientId,
  '--ca',
  caFile,
];

async function ndjsonIds(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: string }).id)
    .sort();
}

describe('catalog-sync', () => {
  it('a first run writes the whole catalogue as NDJSON, commits, logs JSON lines off a terminal, exits 0', async () => {
    const { out, checkpoint } = files();
    const result = await run([...common(), '--out', out, '--checkpoint', checkpoint]);
    expect(result.code, result.stderr).toBe(EXIT.ok);
    expect(await ndjsonIds(out)).toEqual(await stack.liveProductIds());
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ full: true, checkpoint: expect.any(String) });
    expect(JSON.parse(await readFile(checkpoint, 'utf8')).checkpoint).toBe(report.checkpoint);
    for (const line of result.stderr.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();

    const second = await run([...common(), '--out', out, '--checkpoint', checkpoint]);
    expect(second.code).toBe(EXIT.ok);
    expect(JSON.parse(second.stdout)).toMatchObject({ full: false });
    expect(await ndjsonIds(out)).toEqual(await stack.liveProductIds()); // compacted: one line per id
  });

  it('the SQLite output upserts by id and never deletes', async () => {
    const { out, checkpoint } = files('sqlite');
    expect((await run([...common(), '--out', out, '--checkpoint', checkpoint])).code).toBe(EXIT.ok);
    expect((await run([...common(), '--out', out, '--checkpoint', checkpoint, '--full'])).code).toBe(EXIT.ok);
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(out, { readOnly: true });
    const rows = db.prepare('SELECT id FROM products ORDER BY id').all() as { id: string }[];
    db.close();
    expect(rows.map((row) => row.id)).toEqual(await stack.liveProductIds());
  });

  it('--dry-run writes neither the output nor the checkpoint', async () => {
    const { out, checkpoint } = files();
    const result = await run([...common(), '--out', out, '--checkpoint', checkpoint, '--dry-run']);
    expect(result.code).toBe(EXIT.ok);
    await expect(readFile(out)).rejects.toThrow();
    await expect(readFile(checkpoint)).rejects.toThrow();
  });

  it('a lock held by a live process: exit 75 (retryable) and nothing written', async () => {
    const { out, checkpoint } = files();
    await writeFile(`${checkpoint}.lock`, JSON.stringify({ pid: process.pid }));
    const result = await run([...common(), '--out', out, '--checkpoint', checkpoint]);
    expect(result.code).toBe(EXIT.retryable);
    expect(result.stderr).toContain('holds the lock');
    await expect(readFile(checkpoint)).rejects.toThrow();
  });

  it('a stale lock left by a dead process is taken over', async () => {
    const { out, checkpoint } = files();
    await writeFile(`${checkpoint}.lock`, JSON.stringify({ pid: 2 ** 22 + 12_345 }));
    expect((await run([...common(), '--out', out, '--checkpoint', checkpoint])).code).toBe(EXIT.ok);
  });

  it('configuration errors exit 78: missing secret, http:// URL, refused credentials, bad arguments', async () => {
    const { out, checkpoint } = files();
    const args = [...common(), '--out', out, '--checkpoint', checkpoint];
    expect((await run(args, { CATALOG_CLIENT_SECRET: '' })).code).toBe(EXIT.configuration);
    const http = args.map((arg) => (arg === stack.baseUrl ? stack.baseUrl.replace('https:', 'http:') : arg));
    expect((await run(http)).code).toBe(EXIT.configuration);
    expect((await run(args, { CATALOG_CLIENT_SECRET: 'wrong' })).code).toBe(EXIT.configuration);
    expect((await run([...common(), '--checkpoint', checkpoint])).code).toBe(EXIT.configuration);
    expect((await run([...common(), '--out', join(dir, 'x.csv'), '--checkpoint', checkpoint])).code).toBe(
      EXIT.configuration,
    );
  });

  it('an unreachable server exits 75 (retryable) without committing', async () => {
    const { out, checkpoint } = files();
    const args = [...common(), '--out', out, '--checkpoint', checkpoint].map((arg) =>
      arg === stack.baseUrl ? 'https://127.0.0.1:9' : arg,
    );
    const result = await run(args);
    expect(result.code).toBe(EXIT.retryable);
    expect(
      JSON.parse(await readFile(checkpoint, 'utf8').catch(() => '{"checkpoint":null}')).checkpoint,
    ).toBeNull();
  });

  it('a run killed mid-pass resumes from its saved cursor and loses nothing', async () => {
    const { out, checkpoint } = files();
    const slow = [
      ...common(),
      '--out',
      out,
      '--checkpoint',
      checkpoint,
      '--page-size',
      '50',
      '--requests-per-second',
      '4',
    ];
    const child = start(slow);
    for (let waited = 0; waited < 10_000; waited += 50) {
      const state = await readFile(checkpoint, 'utf8').catch(() => '');
      if (state.includes('"syncToken"')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGKILL');
    await once(child, 'exit');
    const saved = JSON.parse(await readFile(checkpoint, 'utf8'));
    expect(saved.checkpoint).toBeNull();
    expect(saved.progress.syncToken).toEqual(expect.any(String));
    const resumed = await run([...common(), '--out', out, '--checkpoint', checkpoint]);
    expect(resumed.code, resumed.stderr).toBe(EXIT.ok);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ resumed: true });
    expect(await ndjsonIds(out)).toEqual(await stack.liveProductIds());
  });
});
