import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runToExit } from '@catalog/server-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/postgres-database.ts';

const CATALOG_CLI = fileURLToPath(new URL('../src/catalog-cli.ts', import.meta.url));
const ADMIN_CLI = fileURLToPath(new URL('../src/admin-cli.ts', import.meta.url));

describe('operator commands with DATABASE_URL work on PostgreSQL', () => {
  let database: TestDatabase;
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'operator-cli-pg-'));
    // A password in the URL must never be printed: PostgreSQL's trust authentication ignores it.
    const url = new URL(database.url);
    url.username = 'postgres';
    url.password = 'pw-Qx81-never-shown';
    env = { DATABASE_URL: url.toString(), DATA_DIR: dir };
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const catalog = (args: string[]) => runToExit({ entry: CATALOG_CLI, args, env });
  const count = async (table: string) =>
    Number((await database.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))[0]?.n);

  it('migrate applies the PostgreSQL schema once, names the database without its password, and records itself', async () => {
    const first = await catalog(['migrate']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/PostgreSQL 127\.0\.0\.1:5432\/operator_cli_\S+: applied 1 initial schema/);
    const again = await catalog(['migrate']);
    expect(again.stdout).toContain('nothing to do');
    expect(first.output + again.output).not.toContain('pw-Qx81');
    expect(await count("audit_events WHERE action = 'catalogue.migrate'")).toBe(1);
    expect(await count('products')).toBe(0);
  });

  it('seed writes the generated products into PostgreSQL, each with its change-feed entry', async () => {
    const result = await catalog(['seed', '--products', '150', '--seed', 'pg']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/seeded 150 products \(seed "pg"\): 150 created, 0 updated/);
    expect(await count('products')).toBe(150);
    expect(await count("change_feed WHERE entity = 'product'")).toBe(150);
  });

  it('import writes a validated NDJSON file into PostgreSQL and refuses a bad one whole', async () => {
    const good = join(dir, 'good.ndjson');
    writeFileSync(
      good,
      [
        '{"productCode":"PG-IMP-1","name":"Imported one"}',
        '{"productCode":"PG-IMP-2","name":"Imported two"}',
        '',
      ].join('\n'),
    );
    expect((await catalog(['import', good])).code).toBe(0);
    expect(await count("products WHERE product_code LIKE 'PG-IMP-%'")).toBe(2);
    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, '{"productCode":"PG-IMP-3","name":"Fine"}\n{"name":"no code"}\n');
    const refused = await catalog(['import', bad]);
    expect(refused.code).toBe(1);
    expect(await count("products WHERE product_code = 'PG-IMP-3'")).toBe(0);
  });

  it('admin users add creates the administrator in PostgreSQL', async () => {
    const result = await runToExit({
      entry: ADMIN_CLI,
      args: ['users', 'add', '--email', 'pg.admin@example.test', '--group', 'admin'],
      env: { ...env, ADMIN_PASSWORD: 'correct horse battery staple' },
    });
    expect(result.code).toBe(0);
    expect(await count("admin_users WHERE email = 'pg.admin@example.test'")).toBe(1);
  });

  it('admin keys rotate works on the set in the database: refused without the pepper the token servers seal it with, and before any token server created it', async () => {
    const rotate = (extra: Record<string, string>) =>
      runToExit({ entry: ADMIN_CLI, args: ['keys', 'rotate'], env: { ...env, ...extra } });
    const noPepper = await rotate({});
    expect(noPepper.code).toBe(1);
    expect(noPepper.stderr).toContain(
      'no client-secret pepper: the signing keys in PostgreSQL are sealed with it',
    );
    const noKeys = await rotate({ CLIENT_SECRET_PEPPER: 'a pepper of at least thirty-two characters' });
    expect(noKeys.code).toBe(1);
    expect(noKeys.stderr).toMatch(
      /PostgreSQL 127\.0\.0\.1:5432\/operator_cli_\S+ \(signing_key_set\): does not exist yet; start the token server once first/,
    );
    expect(noPepper.output + noKeys.output).not.toContain('pw-Qx81');
    expect(await count('signing_key_set')).toBe(0);
    expect(await count("audit_events WHERE target_type = 'signing-key'")).toBe(0);
  });

  it('exits 2 on a DATABASE_URL that is not a postgres:// URL, without repeating it', async () => {
    const result = await runToExit({
      entry: CATALOG_CLI,
      args: ['migrate'],
      env: { DATABASE_URL: 'mysql://root:pw-Qx81@db/catalog', DATA_DIR: dir },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('DATABASE_URL must be a postgres://');
    expect(result.output).not.toContain('pw-Qx81');
  });
});
