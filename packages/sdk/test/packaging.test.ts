// The package as it is published: build, `pnpm pack`, install the tarball in a scratch project, and use
// it from ESM and from CJS against the real servers; the bin answers too.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Credentials, type Stack, startStack } from './support/stack.ts';

const run = promisify(execFile);
const machineNode = process.env.CATALOG_MACHINE_NODE || undefined;
const packageDir = fileURLToPath(new URL('..', import.meta.url));
let stack: Stack;
let credentials: Credentials;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'sdk-pack-'));
  const [started] = await Promise.all([
    startStack({ demoProducts: 120 }),
    run('pnpm', ['run', 'build'], { cwd: packageDir }),
  ]);
  stack = started;
  credentials = await stack.credentials(['products.read']);
  await run('pnpm', ['pack', '--pack-destination', scratch], { cwd: packageDir });
  const tarball = (await readdir(scratch)).find((name) => name.endsWith('.tgz'));
  await writeFile(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
  await writeFile(join(scratch, 'ca.pem'), stack.ca);
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `./${tarball}`], {
    cwd: scratch,
  });
});
afterAll(async () => {
  await stack?.stop();
  await rm(scratch, { recursive: true, force: true });
});

const usage = (load: string) => `
${load}
const { readFileSync } = require('node:fs');
(async () => {
  const client = sdk.createCatalogClient({
    baseUrl: process.env.BASE, authUrl: process.env.AUTH, clientId: process.env.ID, clientSecret: process.env.SECRET,
    scopes: ['products.read'], ca: readFileSync('ca.pem', 'utf8'),
  });
  const rows = new Map();
  const store = { state: { checkpoint: null, progress: null },
    async load() { return this.state; }, async saveProgress(p) { this.state = { ...this.state, progress: p }; },
    async clearProgress() { this.state = { ...this.state, progress: null }; },
    async commit(c) { this.state = { checkpoint: c, progress: null }; } };
  const report = await sdk.sync({ client, checkpointStore: store, upsert: (ps) => ps.forEach((p) => rows.set(p.id, p)) });
  await client.close();
  process.stdout.write(JSON.stringify({ rows: rows.size, report, isError: new sdk.ServerError({ message: 'x' }) instanceof sdk.CatalogError }));
})();
`;

/** The installed bin, run by `node`, into `out` in the scratch project; resolves with its exit code. */
async function catalogSync(node: string, out: string) {
  const bin = join(scratch, 'node_modules/@catalog/sdk/dist/cli/bin.js');
  const args = [
    bin,
    '--base-url',
    stack.baseUrl,
    '--auth-url',
    stack.authUrl,
    '--client-id',
    credentials.clientId,
  ];
  args.push('--ca', 'ca.pem', '--out', out, '--checkpoint', `${out}.state.json`);
  return run(node, args, {
    cwd: scratch,
    env: { PATH: process.env.PATH ?? '', CATALOG_CLIENT_SECRET: credentials.clientSecret },
  }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );
}

async function ndjsonIds(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: string }).id)
    .sort();
}

describe('packaging', () => {
  it('the packed package.json names no workspace or catalog protocol among its dependencies', async () => {
    const installed = JSON.parse(
      await readFile(join(scratch, 'node_modules/@catalog/sdk/package.json'), 'utf8'),
    );
    expect(JSON.stringify(installed.dependencies)).not.toMatch(/workspace:|catalog:/);
    expect(installed.dependencies['@catalog/contracts']).toBeUndefined();
  });

  it.each([
    ['CJS', 'index.cjs', "const sdk = require('@catalog/sdk');"],
    [
      'ESM',
      'index.mjs',
      "import * as sdk from '@catalog/sdk'; import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    ],
  ])('the installed tarball works from %s: a full sync against the real servers', async (_, file, load) => {
    await writeFile(join(scratch, file), usage(load));
    const { stdout } = await run(process.execPath, [file], {
      cwd: scratch,
      env: {
        PATH: process.env.PATH ?? '',
        BASE: stack.baseUrl,
        AUTH: stack.authUrl,
        ID: credentials.clientId,
        SECRET: credentials.clientSecret,
      },
    });
    const result = JSON.parse(stdout);
    expect(result.rows).toBe((await stack.liveProductIds()).length);
    expect(result.report.checkpoint).toEqual(expect.any(String));
    expect(result.isError).toBe(true);
  });

  it.skipIf(machineNode === undefined)(
    `the installed tarball works on the machine's Node (20 on CI), ESM and CJS; its bin syncs to NDJSON and refuses SQLite with exit 78${machineNode === undefined ? ' — skipped: CATALOG_MACHINE_NODE (the path of a Node 20, set by bootstrap.mjs) is unset' : ''}`,
    async () => {
      const node = machineNode ?? '';
      for (const file of ['index.cjs', 'index.mjs']) {
        const { stdout } = await run(node, [file], {
          cwd: scratch,
          env: {
            PATH: process.env.PATH ?? '',
            BASE: stack.baseUrl,
            AUTH: stack.authUrl,
            ID: credentials.clientId,
            SECRET: credentials.clientSecret,
          },
        });
        expect(JSON.parse(stdout).rows).toBe((await stack.liveProductIds()).length);
      }
      const bin = join(scratch, 'node_modules/@catalog/sdk/dist/cli/bin.js');
      expect((await run(node, [bin, '--help'], { cwd: scratch })).stdout).toContain('--checkpoint');
      const ndjson = await catalogSync(node, 'node20.ndjson');
      expect(ndjson.code, ndjson.stderr).toBe(0);
      expect(await ndjsonIds(join(scratch, 'node20.ndjson'))).toEqual(await stack.liveProductIds());
      const [major] = (await run(node, ['-p', 'process.versions.node'])).stdout.split('.');
      if (Number(major) < 22) {
        const sqlite = await catalogSync(node, 'node20.sqlite');
        expect(sqlite.code).toBe(78);
        expect(sqlite.stderr).toContain('needs Node.js 22.5 or later');
      }
    },
  );

  it.each(['products.ndjson', 'products.sqlite'])(
    'the installed bin syncs the whole catalogue into %s on the workspace Node',
    async (out) => {
      const result = await catalogSync(process.execPath, out);
      expect(result.code, result.stderr).toBe(0);
      const path = join(scratch, out);
      if (out.endsWith('.ndjson')) {
        expect(await ndjsonIds(path)).toEqual(await stack.liveProductIds());
        return;
      }
      const { DatabaseSync } = await import('node:sqlite');
      const db = new DatabaseSync(path, { readOnly: true });
      const rows = db.prepare('SELECT id FROM products ORDER BY id').all() as { id: string }[];
      db.close();
      expect(rows.map((row) => row.id)).toEqual(await stack.liveProductIds());
    },
  );

  it('the catalog-sync bin is installed and prints its usage and its version', async () => {
    const { stdout } = await run(join(scratch, 'node_modules/.bin/catalog-sync'), ['--help'], {
      cwd: scratch,
    });
    expect(stdout).toContain('--checkpoint');
    const { version } = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8'));
    const printed = await run(join(scratch, 'node_modules/.bin/catalog-sync'), ['--version'], {
      cwd: scratch,
    });
    expect(printed.stdout).toBe(`${version}\n`);
  });
});
