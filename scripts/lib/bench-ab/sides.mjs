// One side of an A/B: a detached git worktree of its commit under the A/B directory (reused when it
// is already there), installed and built, with its workspace packages read for their bench scripts.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workspacePackageDirs } from '../up-to-date.mjs';

const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** `rev` resolved in `repo`: `{ label, sha, subject }`. */
export function resolveCommit(repo, rev) {
  const sha = git(repo, 'rev-parse', '--verify', `${rev}^{commit}`);
  return { label: rev, sha, subject: git(repo, 'log', '-1', '--format=%s', sha) };
}

/**
 * A worktree of `commit` in `abDir`, named by its hash: created detached (no branch is made or
 * moved), or reused when it exists and is still at that commit.
 */
export function worktreeOf(repo, abDir, commit) {
  const dir = join(abDir, `worktree-${commit.sha.slice(0, 12)}`);
  if (existsSync(dir)) {
    const at = git(dir, 'rev-parse', 'HEAD');
    if (at !== commit.sha) throw new Error(`${dir} is at ${at}, not ${commit.sha}: remove it and run again`);
    return dir;
  }
  git(repo, 'worktree', 'add', '--detach', dir, commit.sha);
  return dir;
}

/** Installs and builds `dir` as the benches expect it (frozen lockfile: the commit's own dependencies). */
export function prepareWorktree(dir, log) {
  for (const args of [['install', '--frozen-lockfile'], ['build']]) {
    log(`${dir}: pnpm ${args.join(' ')}`);
    execFileSync('pnpm', args, { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  }
}

/** The workspace's packages of `dir`: name → `{ dir, scripts }`. */
export function workspacePackages(dir) {
  const packages = new Map();
  for (const packageDir of workspacePackageDirs(dir)) {
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
    packages.set(manifest.name, { dir: packageDir, scripts: manifest.scripts ?? {} });
  }
  return packages;
}
