import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runToExit } from '@catalog/server-runtime/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../src/catalog-cli.ts', import.meta.url));

/**
 * Runs the CLI as `pnpm catalog` does, from sources (workspace packages via their "source" export).
 * Asynchronously: a test worker blocked in spawnSync cannot answer vitest, which fails the run on a
 * loaded machine ("Timeout calling onTaskUpdate").
 */
function catalog(args: string[], env: Record<string, string> = {}) {
  return runToExit({ entry: CLI, args, env });
}

describe('pnpm catalog', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'operator-cli-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('migrate creates <dataDir>/catalog.sqlite and is a no-op the second time', async () => {
    const first = await catalog(['migrate', '--data-dir', dir]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(join(dir, 'catalog.sqlite'));
    expect(first.stdout).toContain('applied');
    expect((await catalog(['migrate', '--data-dir', dir])).stdout).toContain('nothing to do');
  });

  it('takes the data directory from DATA_DIR when --data-dir is absent', async () => {
    const result = await catalog(['migrate'], { DATA_DIR: join(dir, 'from-env') });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(join(dir, 'from-env', 'catalog.sqlite'));
  });

  it('seed writes N generated products and prints a summary', async () => {
    const result = await catalog(['seed', '--products', '120', '--seed', 'cli', '--data-dir', dir]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/seeded 120 products \(seed "cli"\): 120 created, 0 updated/);
  });

  it('exits 2 on usage errors: unknown command, missing or bad --products, missing file', async () => {
    expect((await catalog(['frobnicate'])).code).toBe(2);
    expect((await catalog(['seed', '--data-dir', dir])).code).toBe(2);
    expect((await catalog(['seed', '--products', 'many', '--data-dir', dir])).code).toBe(2);
    const missing = await catalog(['import', join(dir, 'nope.ndjson'), '--data-dir', dir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
  });

  it('import reports bad lines by number and exits 1 without writing; a clean file exits 0', async () => {
    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, '{"productCode":"A","name":"Ok"}\n{"productCode":"","name":"No code"}\nnot json\n');
    const refused = await catalog(['import', bad, '--data-dir', dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${bad}:2: productCode`);
    expect(refused.stderr).toContain(`${bad}:3: (line)`);
    expect(refused.stderr).toContain('nothing was written');

    const good = join(dir, 'good.ndjson');
    writeFileSync(
      good,
      '{"productCode":"A","name":"Ok"}\n{"productCode":"B","name":"Also ok","brandName":"Acme"}\n',
    );
    const imported = await catalog(['import', good, '--data-dir', dir]);
    expect(imported.stderr).toBe('');
    expect(imported).toMatchObject({ code: 0 });
    expect(imported.stdout).toContain('imported 2 products: 2 created, 0 updated');
  });

  // Lines that pass validation and fail in the store: the second takes a brand name the first
  // created under another slug, which only writing can tell.
  const clashingBrands =
    '{"productCode":"A","name":"First","brandName":"Taken","brandSlug":"taken"}\n' +
    '{"productCode":"B","name":"Second","brandName":"Taken","brandSlug":"not-taken"}\n';

  it('an import into an empty catalogue that fails to write exits 1 and says nothing was imported', async () => {
    const file = join(dir, 'clash.ndjson');
    writeFileSync(file, clashingBrands);
    const failed = await catalog(['import', file, '--data-dir', dir]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('lines 1-2: batch not written');
    expect(failed.stderr).toContain('stopped: nothing was imported');
    expect(failed.stderr).not.toContain('are imported');
  });

  it('an import that fails after a committed batch exits 1 and says which lines are imported', async () => {
    const first = join(dir, 'first.ndjson');
    writeFileSync(first, '{"productCode":"Z","name":"Already there"}\n');
    expect((await catalog(['import', first, '--data-dir', dir])).code).toBe(0);
    // 5,000 clean lines make the first batch, then the clashing pair the second.
    const clean = Array.from({ length: 5000 }, (_, i) =>
      JSON.stringify({ productCode: `C${i}`, name: `Clean ${i}` }),
    );
    const file = join(dir, 'clash.ndjson');
    writeFileSync(file, `${clean.join('\n')}\n${clashingBrands}`);
    const failed = await catalog(['import', file, '--data-dir', dir]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('lines 5001-5002: batch not written');
    expect(failed.stderr).toContain('stopped: lines before 5001 are imported');
  });
});
