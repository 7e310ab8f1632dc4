import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildInputs,
  fingerprint,
  installFingerprint,
  installIsFresh,
  isFresh,
  workspaceClosure,
  writeStamp,
} from '../../../scripts/lib/up-to-date.mjs';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const execFileAsync = promisify(execFile);

/** Rewrites a file with other content and a later modification time, as an editor would. */
function edit(path: string, content: string): void {
  writeFileSync(path, content);
  const later = new Date(Date.now() + 5_000);
  utimesSync(path, later, later);
}

describe('scripts/lib/up-to-date.mjs: the operator CLI build and the install are skipped only when nothing changed', () => {
  let root: string;
  const manifest = (name: string, deps: Record<string, string> = {}) =>
    `${JSON.stringify({ name, dependencies: deps })}\n`;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'up-to-date-'));
    writeFileSync(join(root, 'package.json'), manifest('root'));
    writeFileSync(
      join(root, 'pnpm-workspace.yaml'),
      "packages:\n  - apps/*\n  - 'packages/*'\n\ncatalog:\n  x: 1\n",
    );
    writeFileSync(join(root, 'pnpm-lock.yaml'), 'lockfileVersion: 9.0\n');
    writeFileSync(join(root, 'turbo.json'), '{}\n');
    for (const [dir, name, deps] of [
      ['apps/cli', '@x/cli', { '@x/lib': 'workspace:*', commander: '1' }],
      ['packages/lib', '@x/lib', {}],
      ['packages/other', '@x/other', {}],
    ] as const) {
      mkdirSync(join(root, dir, 'src'), { recursive: true });
      mkdirSync(join(root, dir, 'dist'), { recursive: true });
      writeFileSync(join(root, dir, 'package.json'), manifest(name, deps));
      writeFileSync(join(root, dir, 'src', 'index.ts'), 'export const a = 1;\n');
    }
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const buildPrint = () => fingerprint(root, buildInputs(root, '@x/cli'));

  it('a build is stale until one succeeds, fresh after it, and stale again when a source of the CLI or of a workspace package it depends on changes', () => {
    const stamp = join(root, 'apps/cli/dist/.build-inputs.json');
    expect(isFresh(stamp, buildPrint())).toBe(false);
    writeStamp(stamp, buildPrint());
    expect(isFresh(stamp, buildPrint())).toBe(true);

    edit(join(root, 'packages/lib/src/index.ts'), 'export const a = 2;\n');
    expect(isFresh(stamp, buildPrint())).toBe(false);
    writeStamp(stamp, buildPrint());
    expect(isFresh(stamp, buildPrint())).toBe(true);

    writeFileSync(join(root, 'apps/cli/src/new-command.ts'), 'export {};\n');
    expect(isFresh(stamp, buildPrint())).toBe(false);
    writeStamp(stamp, buildPrint());

    edit(join(root, 'pnpm-lock.yaml'), 'lockfileVersion: 9.0\n# changed\n');
    expect(isFresh(stamp, buildPrint())).toBe(false);
  });

  it('a build stays fresh when only its own output, its tests, a package it does not depend on or a tool state directory changes', () => {
    const stamp = join(root, 'apps/cli/dist/.build-inputs.json');
    writeStamp(stamp, buildPrint());
    mkdirSync(join(root, 'packages/lib/test'));
    edit(join(root, 'packages/lib/test/lib.test.ts'), 'test\n');
    edit(join(root, 'packages/lib/README.md'), 'readme\n');
    edit(join(root, 'apps/cli/dist/index.js'), 'built\n');
    edit(join(root, 'packages/other/src/index.ts'), 'export const b = 3;\n');
    mkdirSync(join(root, 'packages/lib/.turbo'));
    edit(join(root, 'packages/lib/.turbo/turbo-build.log'), 'log\n');
    expect(isFresh(stamp, buildPrint())).toBe(true);
  });

  it("the operator CLI's inputs are its package and every workspace package it depends on", () => {
    const names = workspaceClosure(REPO, '@catalog/operator-cli').map((dir: string) =>
      dir.slice(REPO.length).replace(/^\//, ''),
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'apps/operator-cli',
        'packages/catalog-engines',
        'packages/identity',
        'packages/catalog-store',
      ]),
    );
    // The CLI depends on packages only (issue 27): no server's sources make it stale.
    expect(names).not.toContain('apps/catalog-api');
    expect(names).not.toContain('apps/auth-server');
  });

  it("an install is fresh only when pnpm's copy of the lockfile is the lockfile and no manifest changed since the last install", () => {
    const stamp = join(root, 'node_modules/.catalog-install.json');
    expect(installIsFresh(root, stamp)).toBe(false);
    mkdirSync(join(root, 'node_modules/.pnpm'), { recursive: true });
    writeFileSync(join(root, 'node_modules/.pnpm/lock.yaml'), 'lockfileVersion: 9.0\n');
    expect(installIsFresh(root, stamp)).toBe(false);
    writeStamp(stamp, installFingerprint(root));
    expect(installIsFresh(root, stamp)).toBe(true);

    edit(join(root, 'pnpm-lock.yaml'), 'lockfileVersion: 9.0\n# a new dependency\n');
    expect(installIsFresh(root, stamp)).toBe(false);
    writeFileSync(join(root, 'node_modules/.pnpm/lock.yaml'), 'lockfileVersion: 9.0\n# a new dependency\n');
    expect(installIsFresh(root, stamp)).toBe(true);

    edit(join(root, 'packages/lib/package.json'), manifest('@x/lib', { zod: '4' }));
    expect(installIsFresh(root, stamp)).toBe(false);
  });
});

describe('the root .npmrc', () => {
  it('holds only settings npm knows: npm run prints no "Unknown project config" warning', async () => {
    // Not spawnSync: a worker blocked in it cannot answer vitest, which fails a loaded run.
    const listed = await execFileAsync('npm', ['run'], { cwd: REPO, encoding: 'utf8' });
    expect(`${listed.stdout}${listed.stderr}`).not.toMatch(/Unknown project config/);
  });
});
