import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../src/catalog-cli.ts', import.meta.url));

/** Runs the CLI as `pnpm catalog` does, from sources (workspace packages via their "source" export). */
function catalog(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ['--conditions=source', CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('pnpm catalog', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'operator-cli-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('migrate creates <dataDir>/catalog.sqlite and is a no-op the second time', () => {
    const first = catalog(['migrate', '--data-dir', dir]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(join(dir, 'catalog.sqlite'));
    expect(first.stdout).toContain('applied');
    expect(catalog(['migrate', '--data-dir', dir]).stdout).toContain('nothing to do');
  });

  it('takes the data directory from DATA_DIR when --data-dir is absent', () => {
    const result = catalog(['migrate'], { DATA_DIR: join(dir, 'from-env') });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(join(dir, 'from-env', 'catalog.sqlite'));
  });

  it('seed writes N generated products and prints a summary', () => {
    const result = catalog(['seed', '--products', '120', '--seed', 'cli', '--data-dir', dir]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/seeded 120 products \(seed "cli"\): 120 created, 0 updated/);
  });

  it('exits 2 on usage errors: unknown command, missing or bad --products, missing file', () => {
    expect(catalog(['frobnicate']).code).toBe(2);
    expect(catalog(['seed', '--data-dir', dir]).code).toBe(2);
    expect(catalog(['seed', '--products', 'many', '--data-dir', dir]).code).toBe(2);
    const missing = catalog(['import', join(dir, 'nope.ndjson'), '--data-dir', dir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
  });

  it('import reports bad lines by number and exits 1 without writing; a clean file exits 0', () => {
    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, '{"productCode":"A","name":"Ok"}\n{"productCode":"","name":"No code"}\nnot json\n');
    const refused = catalog(['import', bad, '--data-dir', dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${bad}:2: productCode`);
    expect(refused.stderr).toContain(`${bad}:3: (line)`);
    expect(refused.stderr).toContain('nothing was written');

    const good = join(dir, 'good.ndjson');
    writeFileSync(
      good,
      '{"productCode":"A","name":"Ok"}\n{"productCode":"B","name":"Also ok","brandName":"Acme"}\n',
    );
    const imported = catalog(['import', good, '--data-dir', dir]);
    expect(imported.stderr).toBe('');
    expect(imported).toMatchObject({ code: 0 });
    expect(imported.stdout).toContain('imported 2 products: 2 created, 0 updated');
  });
});
