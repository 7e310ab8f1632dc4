// Cheap answers to "has anything changed since the last build / install?", so that an operator's
// command does not pay for turbo's start-up (seconds) or pnpm's install (tens of seconds) when
// nothing did. A fingerprint is a hash of every input file's path, size and modification time:
// reading no contents keeps it to a few milliseconds, and any edit, checkout or copy moves one of them.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Never a build's input: generated, installed or a tool's own state. */
const SKIPPED = new Set(['node_modules', 'dist', 'coverage']);

function packageJson(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

/** Directories of the workspace's packages (pnpm-workspace.yaml's `packages:` globs of the form `dir/*`). */
export function workspacePackageDirs(root) {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const block = yaml.match(/^packages:\n((?:[ \t]+-.*\n?)+)/m)?.[1] ?? '';
  const globs = [...block.matchAll(/-\s*['"]?([^'"\s]+)['"]?/g)].map((match) => match[1]);
  return globs.flatMap((glob) => {
    const parent = join(root, glob.replace(/\/\*$/, ''));
    if (!glob.endsWith('/*')) return existsSync(join(parent, 'package.json')) ? [parent] : [];
    if (!existsSync(parent)) return [];
    return readdirSync(parent, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(parent, entry.name, 'package.json')))
      .map((entry) => join(parent, entry.name));
  });
}

/** `name`'s package directory and those of every workspace package it depends on, transitively. */
export function workspaceClosure(root, name) {
  const byName = new Map(workspacePackageDirs(root).map((dir) => [packageJson(dir).name, dir]));
  const found = new Map();
  const visit = (packageName) => {
    const dir = byName.get(packageName);
    if (dir === undefined || found.has(packageName)) return;
    found.set(packageName, dir);
    const manifest = packageJson(dir);
    for (const deps of [manifest.dependencies, manifest.devDependencies]) {
      for (const [dep, spec] of Object.entries(deps ?? {}))
        if (String(spec).startsWith('workspace:')) visit(dep);
    }
  };
  visit(name);
  if (found.size === 0) throw new Error(`no workspace package named ${name}`);
  return [...found.values()].sort();
}

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    // Dot-directories are tools' state (.turbo, .vitest, .bench), not sources.
    if (SKIPPED.has(entry.name) || (entry.isDirectory() && entry.name.startsWith('.'))) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/** A hash of the path, size and mtime of every file under `paths` (files or directories), relative to `root`. */
export function fingerprint(root, paths) {
  const hash = createHash('sha256');
  const files = paths.flatMap((path) => {
    if (!existsSync(path)) return [];
    return statSync(path).isDirectory() ? [...filesUnder(path)] : [path];
  });
  for (const file of files.sort()) {
    const stat = statSync(file);
    hash.update(`${relative(root, file)}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

/** Whether `stampFile` holds `print` (written by `writeStamp` after the last successful run). */
export function isFresh(stampFile, print) {
  try {
    return JSON.parse(readFileSync(stampFile, 'utf8')).fingerprint === print;
  } catch {
    return false;
  }
}

export function writeStamp(stampFile, print) {
  mkdirSync(dirname(stampFile), { recursive: true });
  writeFileSync(
    stampFile,
    `${JSON.stringify({ fingerprint: print, writtenAt: new Date().toISOString() })}\n`,
  );
}

/**
 * What a build of workspace package `name` reads: each package's build (`tsc -p tsconfig.build.json`)
 * compiles its `src` with the settings in its top-level files, for it and every workspace package it
 * depends on; then the lockfile (dependency versions) and turbo's settings. Tests, benches and READMEs
 * are no part of any build output, so editing them leaves the build fresh.
 */
export function buildInputs(root, name) {
  const packageInputs = (dir) => [
    join(dir, 'src'),
    ...readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.name.endsWith('.md'))
      .map((entry) => join(dir, entry.name)),
  ];
  return [
    ...workspaceClosure(root, name).flatMap(packageInputs),
    join(root, 'pnpm-lock.yaml'),
    join(root, 'turbo.json'),
    join(root, 'package.json'),
  ];
}

/**
 * Whether `pnpm install` has nothing to do: the lockfile pnpm last installed (its copy in
 * node_modules/.pnpm/lock.yaml) is the current one, and no package.json or workspace setting changed
 * since the last successful install (`stampFile`).
 */
export function installIsFresh(root, stampFile) {
  const installed = join(root, 'node_modules', '.pnpm', 'lock.yaml');
  const lockfile = join(root, 'pnpm-lock.yaml');
  if (!existsSync(installed) || !existsSync(lockfile)) return false;
  if (!readFileSync(installed).equals(readFileSync(lockfile))) return false;
  return isFresh(stampFile, installFingerprint(root));
}

/** The files an install reads besides the lockfile: every manifest and the workspace's settings. */
export function installFingerprint(root) {
  return fingerprint(root, [
    join(root, 'package.json'),
    join(root, 'pnpm-workspace.yaml'),
    join(root, '.npmrc'),
    ...workspacePackageDirs(root).map((dir) => join(dir, 'package.json')),
  ]);
}
