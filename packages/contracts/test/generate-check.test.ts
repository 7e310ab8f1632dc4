import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderGeneratedFiles, staleGeneratedFiles } from '../scripts/generated-files.ts';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

function runCheck(cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/generate.ts', '--check'], { cwd }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('contracts:check fails when a generated file is stale', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'contracts-check-'));
    for (const part of ['openapi', 'scripts', join('src', 'generated')]) {
      await cp(join(packageDir, part), join(dir, part), { recursive: true });
    }
    await symlink(join(packageDir, 'node_modules'), join(dir, 'node_modules'), 'dir');
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // In this process: the rendering is what the command runs, and a second process loading
  // TypeScript for it cost seconds on a busy machine.
  it('finds nothing stale in an unchanged copy', async () => {
    expect(await staleGeneratedFiles(dir, await renderGeneratedFiles(dir))).toEqual([]);
  });

  it('exits 1 naming the stale files after the YAML changes', async () => {
    const yamlPath = join(dir, 'openapi', 'catalog-api.yaml');
    const yaml = await readFile(yamlPath, 'utf8');
    await writeFile(yamlPath, yaml.replace('summary: Get one brand', 'summary: Get one brand by id'));
    const result = await runCheck(dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('src/generated/catalog-api.ts');
    expect(result.stderr).toContain('src/generated/catalog-api.document.ts');
    expect(result.stderr).not.toContain('auth-server');
  });
});
