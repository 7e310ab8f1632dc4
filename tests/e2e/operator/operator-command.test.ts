import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type PostgresDatabase } from '../support/postgres-database.ts';
import { settings } from '../support/settings.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const ADMIN_CLI = fileURLToPath(new URL('../../../apps/operator-cli/src/admin-cli.ts', import.meta.url));

interface Exit {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a command to its exit without blocking the test worker: a worker held in spawnSync cannot
 * answer vitest, which fails the run on a loaded machine ("Timeout calling onTaskUpdate").
 */
function run(
  command: string,
  args: string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv; input?: string },
) {
  return new Promise<Exit>((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

describe('pnpm admin, as an operator runs it (scripts/operator.mjs)', () => {
  let dataDir: string;
  let database: PostgresDatabase | undefined;
  let operatorEnv: NodeJS.ProcessEnv;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'operator-command-'));
    if (settings.engine === 'postgres') database = await createPostgresDatabase();
    // biome-ignore lint/style/noProcessEnv: the children run as an operator's shell would, with its whole environment.
    const { DATABASE_URL: _shells, ...shell } = process.env;
    // A DATABASE_URL of the shell's gives way to this run's engine (E2E_ENGINE).
    operatorEnv = {
      ...shell,
      DATA_DIR: dataDir,
      ...(database === undefined ? {} : { DATABASE_URL: database.url }),
    };
    const added = await run(
      process.execPath,
      ['--conditions=source', ADMIN_CLI, 'users', 'add', '--email', 'ops@example.com', '--group', 'admin'],
      { input: 'a long operator password\n', env: operatorEnv },
    );
    expect(added.status).toBe(0);
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // The script builds the operator CLI first; that build must not add turbo's banner or tsc's output
  // to what the command prints. This suite runs after turbo's `conformance` task has built every
  // package, so the build here is a cache hit: a full build inside the package tests took ~50 s.
  it('prints only the command output: nothing on stderr when the build and the command succeed', async () => {
    const result = await run('pnpm', ['--silent', 'admin', 'users', 'list'], { cwd: ROOT, env: operatorEnv });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('ops@example.com');
  });
});
