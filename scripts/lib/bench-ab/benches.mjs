// The benchmarks an A/B compares, each found on a side by its package script rather than by file
// path: issue 27 moves search out of packages/catalog-store, so a bench may live in another package
// (or another script) on one side than on the other. Candidates are tried in order; a bench none
// of whose candidates exists on a side is "not run on this side", not a failure.

/**
 * `segment`: the script runs several benches in a row (`node a.ts; node b.ts`); only the command
 * naming this file is run. `skipGroups`: figure groups left out of the A/B, because which figures
 * they hold changes from run to run (so no two rounds line up).
 */
export const BENCHES = [
  {
    id: 'api-search',
    path: 'search',
    title: 'API search over TLS (GET /products/search)',
    // The slowest shape classes of each run are other classes; the summary group holds their p99.
    skipGroups: ['Query shapes at c1: the slowest classes (ms)'],
    // `bench` runs the API bench once per engine since issue 28; `bench:one` once, on the default.
    candidates: [
      { pkg: '@catalog/catalog-api', script: 'bench:one' },
      { pkg: '@catalog/catalog-api', script: 'bench' },
    ],
  },
  {
    id: 'store-search',
    path: 'search',
    title: 'Search engine end to end (searchDocuments)',
    candidates: [
      { pkg: '@catalog/search', script: 'bench:search' },
      { pkg: '@catalog/search', script: 'bench', segment: 'search-bench.ts' },
      { pkg: '@catalog/store', script: 'bench:search' },
      { pkg: '@catalog/store', script: 'bench', segment: 'search-bench.ts' },
    ],
  },
  {
    id: 'store-load',
    path: 'write',
    title: 'Bulk load and per-product writes (upsertMany)',
    candidates: [{ pkg: '@catalog/store', script: 'bench:load' }],
  },
  {
    id: 'store-postgres',
    path: 'write',
    title: 'PostgreSQL deployment: import, replica build, single writes to searchable, queries',
    candidates: [
      { pkg: '@catalog/store', script: 'bench:postgres' },
      { pkg: '@catalog/search', script: 'bench:postgres' },
    ],
  },
];

/** The commands of a package script, split where the shell would run them one after another. */
function scriptCommands(script) {
  return script
    .split(/;|&&|\|\|/)
    .map((command) => command.trim())
    .filter((command) => command !== '');
}

/**
 * How `bench` runs on a side whose packages are `packages` (name → { dir, scripts }):
 * `{ pkg, dir, script, command }`, where `command` is the shell command to run in `dir` when only a
 * segment of the script is wanted (else undefined: run the script itself), or null when no candidate
 * exists there.
 */
export function resolveBench(bench, packages) {
  for (const candidate of bench.candidates) {
    const found = packages.get(candidate.pkg);
    const script = found?.scripts?.[candidate.script];
    if (script === undefined) continue;
    if (candidate.segment === undefined) {
      return { pkg: candidate.pkg, dir: found.dir, script: candidate.script, command: undefined };
    }
    const command = scriptCommands(script).find((part) => part.includes(candidate.segment));
    if (command !== undefined)
      return { pkg: candidate.pkg, dir: found.dir, script: candidate.script, command };
  }
  return null;
}
