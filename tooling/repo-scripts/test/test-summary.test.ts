// scripts/test-summary.mjs, the closing verdict of `pnpm test`, fed the JSON report vitest really
// writes (the fixtures run in a vitest of their own), so a change of the report's shape shows here.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const fixtures = fileURLToPath(new URL('./fixtures/summary/', import.meta.url));
const summaryScript = fileURLToPath(new URL('../../../scripts/test-summary.mjs', import.meta.url));
const vitestEntry = join(
  dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
);

/** This run's environment without what makes a child vitest think it runs inside this one. */
const childEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'TEST'),
);

interface Exit {
  readonly code: number;
  readonly stdout: string;
}

const run = (args: string[], cwd: string) =>
  new Promise<Exit>((resolve, reject) => {
    execFile(process.execPath, args, { cwd, env: childEnv }, (error, stdout) => {
      if (error !== null && typeof error.code !== 'number') reject(error);
      else resolve({ code: error === null ? 0 : Number(error.code), stdout });
    });
  });

let workspace: string;

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'test-summary-'));
  const reportDir = join(workspace, 'tooling', 'fixtures', '.vitest');
  await mkdir(reportDir, { recursive: true });
  const fixtureRun = await run(
    [
      vitestEntry,
      'run',
      '--root',
      fixtures,
      '--config',
      join(fixtures, 'vitest.config.js'),
      '--reporter=json',
      `--outputFile=${join(reportDir, 'results.json')}`,
    ],
    fixtures,
  );
  // The fixture run itself fails: one of its files does.
  expect(fixtureRun.code).not.toBe(0);
}, 120_000);
afterAll(async () => {
  if (workspace !== undefined) await rm(workspace, { recursive: true, force: true });
});

describe('scripts/test-summary.mjs', () => {
  it('counts a file that failed in beforeAll as a failed file, names it, and exits non-zero although no test failed', async () => {
    const summary = await run([summaryScript], workspace);
    expect(summary.stdout).toContain('tests: 1 passed, 0 failed, 1 skipped');
    expect(summary.stdout).toContain('files: 1 failed');
    expect(summary.stdout).toMatch(/failed: \S*fails-in-before-all\.fixture\.ts/);
    expect(summary.code).toBe(1);
  });
});
