import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDeploymentSigningKeys } from '@catalog/engines';
import { runToExit, spawnService } from '@catalog/server-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/postgres-database.ts';

const CLI = fileURLToPath(new URL('../src/catalog-cli.ts', import.meta.url));
const TOKEN_SERVER = fileURLToPath(new URL('../../auth-server/src/main.ts', import.meta.url));

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
    // As the embedded deployment has them: its token server made the signing keys and the pepper.
    const tokenServer = await spawnService({
      entry: TOKEN_SERVER,
      env: { DATA_DIR: dir, AUTH_SERVER_PORT: '0' },
    });
    expect(await tokenServer.stop()).toBe(0);
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

  it('refuses to carry signing keys it cannot seal (no pepper beside them nor CLIENT_SECRET_PEPPER): exit 1, nothing written', async () => {
    const keysOnly = join(dir, 'keys-without-pepper');
    mkdirSync(join(keysOnly, 'keys'), { recursive: true });
    copyFileSync(join(dir, 'catalog.sqlite'), join(keysOnly, 'catalog.sqlite'));
    copyFileSync(join(dir, 'keys', 'signing-keys.json'), join(keysOnly, 'keys', 'signing-keys.json'));
    const refused = await catalog(['copy', '--from', `sqlite:${keysOnly}`, '--to', target]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('copy refused: no client-secret pepper');
    expect(refused.output).not.toContain(password);
    const [rows] = await database.query<{ products: string; keys: string }>(
      'SELECT (SELECT count(*) FROM products) AS products, (SELECT count(*) FROM signing_key_set) AS keys',
    );
    expect(rows).toEqual({ products: '0', keys: '0' });
  });

  it('copies a data directory into the empty database: the verified counts, the time, the signing keys sealed into it, and the secrets to move', async () => {
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
    expect(copied.stdout).toContain(
      "token signing keys: in the database now, sealed with this deployment's client-secret pepper",
    );
    // The keys are no longer a file to move.
    expect(copied.stdout).not.toContain(`${join(dir, 'keys')}/`);
    expect(copied.stdout).toContain('or every client secret stops working');
    expect(copied.output).not.toContain(password);

    const source = JSON.parse(readFileSync(join(dir, 'keys', 'signing-keys.json'), 'utf8'));
    const [row] = await database.query<{ version: string; sealed: Buffer }>(
      'SELECT version, sealed FROM signing_key_set',
    );
    expect(row?.version).toBe('1');
    expect(row?.sealed.toString('latin1')).not.toContain('"d"');
    expect(row?.sealed.toString('latin1')).not.toContain(source.keys[0].privateJwk.d);
    // The PostgreSQL deployment's servers, given the source's pepper, open the source's very keys.
    const keys = await openDeploymentSigningKeys({
      storage: { engine: 'postgres', url: database.url, dataDir: dir },
      clientSecretPepper: undefined,
    });
    try {
      expect((await keys.read())?.set).toEqual(source);
    } finally {
      await keys.close();
    }
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
