import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const ADMIN_CLI = fileURLToPath(new URL('../../../apps/operator-cli/src/admin-cli.ts', import.meta.url));

describe('pnpm admin, as an operator runs it (scripts/operator.mjs)', () => {
  let dataDir: string;
  let operatorEnv: NodeJS.ProcessEnv;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'operator-command-'));
    // biome-ignore lint/style/noProcessEnv: the children run as an operator's shell would, with its whole environment.
    operatorEnv = { ...process.env, DATA_DIR: dataDir };
    const added = spawnSync(
      process.execPath,
      ['--conditions=source', ADMIN_CLI, 'users', 'add', '--email', 'ops@example.com', '--group', 'admin'],
      { encoding: 'utf8', input: 'a long operator password\n', env: operatorEnv },
    );
    expect(added.status).toBe(0);
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  // The script builds the operator CLI first; that build must not add turbo's banner or tsc's output
  // to what the command prints. This suite runs after turbo's `conformance` task has built every
  // package, so the build here is a cache hit: a full build inside the package tests took ~50 s.
  it('prints only the command output: nothing on stderr when the build and the command succeed', () => {
    const result = spawnSync('pnpm', ['--silent', 'admin', 'users', 'list'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: operatorEnv,
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('ops@example.com');
  }, 180_000);
});
