import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runToExit } from '@catalog/server-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/postgres-database.ts';

const CLI = fileURLToPath(new URL('../src/catalog-cli.ts', import.meta.url));

function catalog(args: string[], env: Record<string, string> = {}) {
  return runToExit({ entry: CLI, args, env });
}

describe('pnpm catalog copy: arguments', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'operator-cli-copy-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 2 when --from is missing, is not sqlite:PATH, or names no catalogue', async () => {
    const to = ['--to', 'postgres://127.0.0.1:5432/catalog'];
    expect((await catalog(['copy', ...to])).code).toBe(2);
    const notSqlite = await catalog(['copy', '--from', dir, ...to]);
    expect(notSqlite.code).toBe(2);
    expect(notSqlite.stderr).toContain('--from must be sqlite:PATH');
    const nothingThere = await catalog(['copy', '--from', `sqlite:${dir}`, ...to]);
    expect(nothingThere.code).toBe(2);
    expect(nothingThere.stderr).toContain(`no SQLite catalogue at ${join(dir, 'catalog.sqlite')}`);
  });

  it('exits 2 without a target, or on one that is not a postgres URL, never repeating what was given', async () => {
    mkdirSync(join(dir, 'data'));
    writeFileSync(join(dir, 'data', 'catalog.sqlite'), '');
    const from = ['--from', `sqlite:${join(dir, 'data')}`];
    const none = await catalog(['copy', ...from]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--to postgres://… (or DATABASE_URL) names the target');
    const wrong = await catalog(['copy', ...from, '--to', 'mysql://admin:hunter2@db.example.com/catalog']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--to must be a postgres://user:password@host:port/database URL');
    expect(wrong.output).not.toContain('hunter2');
  });
});

describe('pnpm catalog copy into PostgreSQL', () => {
  let dir: string;
  let database: TestDatabase;
  let target: string;
  let password: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'operator-cli-copy-'));
    database = await createTestDatabase();
    const url = new URL(database.url);
    // A server that trusts the connection never asks for it; one that asks gets the one it knows.
    if (url.password === '') url.password = 'not-for-the-terminal';
    password = url.password;
    target = url.toString();
    expect((await catalog(['seed', '--products', '50', '--seed', 'copy', '--data-dir', dir])).code).toBe(0);
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a copy that fails exits 1, says why and that it was rolled back', async () => {
    const broken = join(dir, 'broken');
    const file = join(dir, 'nul.ndjson');
    writeFileSync(
      file,
      `${JSON.stringify({ productCode: 'N-1', name: 'Exported with a NUL', notes: 'a\u0000b' })}\n`,
    );
    expect((await catalog(['import', file, '--data-dir', broken])).code).toBe(0);
    const failed = await catalog(['copy', '--from', `sqlite:${broken}`, '--to', target]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(
      'copy failed: copying products: invalid byte sequence for encoding "UTF8": 0x00',
    );
    expect(failed.stderr).toMatch(
      new RegExp(`rolled back: PostgreSQL [^ ]+/${database.name} holds none of the copied records`),
    );
    expect(failed.output).not.toContain(password);
  });

  it('copies a data directory into the empty database: the verified counts, the time, and the pepper and keys to move', async () => {
    const copied = await catalog(['copy', '--from', `sqlite:${dir}`, '--to', target]);
    expect(copied.stderr).toBe('');
    expect(copied.code).toBe(0);
    expect(copied.stdout).toMatch(
      new RegExp(
        `copied ${join(dir, 'catalog.sqlite')} to PostgreSQL [^ ]+/${database.name} in \\d+\\.\\d s`,
      ),
    );
    expect(copied.stdout).toMatch(/^ {2}products +50$/m);
    expect(copied.stdout).toMatch(/^ {2}change_feed +\d+$/m);
    expect(copied.stdout).toContain(join(dir, 'secrets', 'client-secret-pepper'));
    expect(copied.stdout).toContain('CLIENT_SECRET_PEPPER');
    expect(copied.stdout).toContain(`${join(dir, 'keys')}/`);
    expect(copied.stdout).toContain('or every client secret stops working');
    expect(copied.output).not.toContain(password);
  });

  it('takes the target from DATABASE_URL and refuses it once it holds a catalogue: exit 1, nothing written', async () => {
    const refused = await catalog(['copy', '--from', `sqlite:${join(dir, 'catalog.sqlite')}`], {
      DATABASE_URL: target,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('copy refused: the PostgreSQL catalogue is not empty');
    expect(refused.stderr).toContain('nothing was written');
    expect(refused.output).not.toContain(password);
  });
});
