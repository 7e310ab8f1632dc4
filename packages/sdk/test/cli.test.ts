// catalog-sync, run as a real process against both real servers.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../src/cli/exit-codes.ts';
import { type Credentials, type Stack, startStack } from './support/stack.ts';

const bin = fileURLToPath(new URL('../src/cli/bin.ts', import.meta.url));
let stack: Stack;
let credentials: Credentials;
let dir: string;
let caFile: string;
let counter = 0;
let wrongCaFile: string;

beforeAll(async () => {
  stack = await startStack({ demoProducts: 450 });
  credentials = await stack.credentials(['products.read']);
  dir = await mkdtemp(join(tmpdir(), 'sdk-cli-'));
  caFile = join(dir, 'ca.pem');
  await writeFile(caFile, stack.ca);
  // A CA that did not sign the servers' certificates.
  wrongCaFile = join(dir, 'wrong-ca.pem');
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=not the catalog CA',
    '-keyout',
    join(dir, 'wrong-ca.key'),
    '-out',
    wrongCaFile,
  ]);
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

/** The JSON log lines of a run's stderr. */
const logLines = (stderr: string) =>
  stderr
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { level: string; msg: string; [key: string]: unknown });

async function committed(checkpoint: string): Promise<string | null> {
  const text = await readFile(checkpoint, 'utf8').catch(() => '{"checkpoint":null}');
  return (JSON.parse(text) as { checkpoint: string | null }).checkpoint;
}

/** Waits for an observable state, never for a duration. */
async function until(what: string, check: () => Promise<boolean>, limitMs = 60_000): Promise<void> {
  for (const started = Date.now(); !(await check()); ) {
    if (Date.now() - started > limitMs) throw new Error(`never saw: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function ndjsonIds(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: string }).id)
    .sort();
}

// Each test runs the command as a process, often more than once: seconds each, more on a loaded machine.
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
    expect(logLines(result.stderr).find((line) => line.msg === 'sync started')).toMatchObject({ full: true });

    const second = await run([...common(), '--out', out, '--checkpoint', checkpoint]);
    expect(second.code).toBe(EXIT.ok);
    expect(JSON.parse(second.stdout)).toMatchObject({ full: false });
    expect(logLines(second.stderr).find((line) => line.msg === 'sync started')).toMatchObject({
      full: false,
    });
    expect(await ndjsonIds(out)).toEqual(await stack.liveProductIds()); // compacted: one line per id
    expect((await stat(out)).mode & 0o777).toBe(0o644); // compaction kept the appended file's mode
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
      '1', // ten pages over ten seconds: certainly still running when the first cursor is saved
    ];
    const child = start(slow);
    await until('a saved cursor', async () =>
      (await readFile(checkpoint, 'utf8').catch(() => '')).includes('"syncToken"'),
    );
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

  it('a run killed during a write, its file then given a partial last line, is repaired by the next run: exit 0, every line parses', async () => {
    const { out, checkpoint } = files();
    const child = start([
      ...common(),
      '--out',
      out,
      '--checkpoint',
      checkpoint,
      '--page-size',
      '50',
      '--requests-per-second',
      '1', // ten pages over ten seconds: certainly still running when the first page is written
    ]);
    await until(
      'the first page in the output',
      async () => ((await stat(out).catch(() => undefined))?.size ?? 0) > 0,
    );
    child.kill('SIGKILL');
    await once(child, 'exit');
    await appendFile(out, '{"id":"cut-short","name":"half a li');
    const next = await run([...common(), '--out', out, '--checkpoint', checkpoint]);
    expect(next.code, next.stderr).toBe(EXIT.ok);
    expect(logLines(next.stderr).some((line) => line.msg.includes('partial last line'))).toBe(true);
    expect(await ndjsonIds(out)).toEqual(await stack.liveProductIds());
  });

  it('an output that cannot be made final commits nothing: exit 1, the file and line named, the checkpoint unchanged', async () => {
    const { out, checkpoint } = files();
    expect((await run([...common(), '--out', out, '--checkpoint', checkpoint])).code).toBe(EXIT.ok);
    const before = await committed(checkpoint);
    const lines = (await readFile(out, 'utf8')).split('\n');
    lines.splice(2, 0, '{"id":"x","a":1 "b":2}');
    await writeFile(out, lines.join('\n'));
    const result = await run([...common(), '--out', out, '--checkpoint', checkpoint]);
    expect(result.code).toBe(EXIT.failed);
    expect(result.stderr).toContain(`${out}:3: not a JSON line`);
    expect(result.stderr).toContain('the checkpoint was not committed');
    expect(await committed(checkpoint)).toBe(before);
  });

  it('the output is locked too: a run with another checkpoint but the same --out exits 75 and writes nothing', async () => {
    const { out, checkpoint } = files();
    await writeFile(`${out}.lock`, JSON.stringify({ pid: process.pid }));
    const result = await run([...common(), '--out', out, '--checkpoint', checkpoint]);
    expect(result.code).toBe(EXIT.retryable);
    expect(result.stderr).toContain(`${out}.lock`);
    await expect(stat(out)).rejects.toThrow(/ENOENT/);
    expect(await committed(checkpoint)).toBeNull();
  });

  it('a missing output or checkpoint directory is a configuration error (78) naming the path; a refused secret creates no output', async () => {
    const { out, checkpoint } = files();
    const missing = join(dir, 'no-such-dir');
    const noOut = await run([...common(), '--out', join(missing, 'x.ndjson'), '--checkpoint', checkpoint]);
    expect(noOut.code).toBe(EXIT.configuration);
    expect(noOut.stderr).toContain(`--out ${join(missing, 'x.ndjson')}`);
    const noState = await run([...common(), '--out', out, '--checkpoint', join(missing, 'state.json')]);
    expect(noState.code).toBe(EXIT.configuration);
    expect(noState.stderr).toContain(`--checkpoint ${join(missing, 'state.json')}`);
    expect(noState.stderr).not.toContain('ENOENT');
    const refused = await run([...common(), '--out', out, '--checkpoint', checkpoint], {
      CATALOG_CLIENT_SECRET: 'wrong',
    });
    expect(refused.code).toBe(EXIT.configuration);
    await expect(stat(out)).rejects.toThrow(/ENOENT/);
  });

  it.each([
    ['no --ca', [] as string[]],
    ['a --ca that did not sign the server certificate', ['--ca', 'WRONG']],
  ])(
    'a server certificate that does not verify (%s) is a configuration error (78), not retried',
    async (_, ca) => {
      const { out, checkpoint } = files();
      const args = common()
        .slice(0, -2)
        .concat(ca.map((arg) => (arg === 'WRONG' ? wrongCaFile : arg)));
      const result = await run([...args, '--out', out, '--checkpoint', checkpoint]);
      expect(result.code, result.stderr).toBe(EXIT.configuration);
      expect(result.stderr).toContain('--ca');
      expect(result.stderr).not.toMatch(/retrying|page retry/);
      await expect(stat(out)).rejects.toThrow(/ENOENT/);
    },
  );

  it('--pacing-file paces through the shared state file', async () => {
    const { out, checkpoint } = files();
    const pacing = join(dir, `pacing-${counter}.json`);
    const result = await run([
      ...common(),
      '--out',
      out,
      '--checkpoint',
      checkpoint,
      '--pacing-file',
      pacing,
    ]);
    expect(result.code, result.stderr).toBe(EXIT.ok);
    expect((await stat(pacing)).size).toBeGreaterThan(0);
  });

  it('--version prints the package version; --help lists every exit code', async () => {
    const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
    const printed = await run(['--version']);
    expect(printed).toMatchObject({ code: EXIT.ok, stdout: `${version}\n` });
    const help = await run(['--help']);
    expect(help.code).toBe(EXIT.ok);
    for (const code of Object.values(EXIT)) expect(help.stdout).toMatch(new RegExp(`^\\s+${code}\\s`, 'm'));
    for (const option of ['--pacing-file', '--log-level', '--quiet', '--version'])
      expect(help.stdout).toContain(option);
  });

  it('--page-size above 100 warns that it is capped; --quiet logs no info lines; text logs print only defined fields', async () => {
    const { out, checkpoint } = files();
    const capped = await run([
      ...common(),
      '--out',
      out,
      '--checkpoint',
      checkpoint,
      '--page-size',
      '500',
      '--quiet',
    ]);
    expect(capped.code, capped.stderr).toBe(EXIT.ok);
    const lines = logLines(capped.stderr);
    expect(lines.some((line) => line.level === 'warn' && line.msg.includes('--page-size 500'))).toBe(true);
    expect(lines.filter((line) => line.level === 'info')).toEqual([]);
    const text = await run([...common(), '--out', out, '--checkpoint', checkpoint, '--log-format', 'text'], {
      CATALOG_CLIENT_SECRET: 'wrong',
    });
    expect(text.code).toBe(EXIT.configuration);
    expect(text.stderr).toMatch(/^error: /m);
    expect(text.stderr).not.toContain('undefined');
  });
});
