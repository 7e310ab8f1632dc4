// The published build: ESM and CJS, one declaration file per module system, types of the private
// @catalog/contracts inlined, and its few runtime values inlined as literals (read off the contract at
// build time), so the package needs nothing private at run time.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';

/** The runtime names src/contract-values.ts takes from the contract. */
const CONTRACT_VALUES = ['REPORTED_TOTAL_CAP', 'SEARCH_SIZE_MAX', 'SYNC_OVERLAP_SECONDS'] as const;

function readContractValues(): Record<string, unknown> {
  const script = `import * as c from '@catalog/contracts'; process.stdout.write(JSON.stringify(Object.fromEntries(${JSON.stringify(CONTRACT_VALUES)}.map((n) => [n, c[n]]))));`;
  const output = execFileSync(
    process.execPath,
    ['--conditions=source', '--input-type=module', '-e', script],
    {
      cwd: fileURLToPath(new URL('.', import.meta.url)),
      encoding: 'utf8',
    },
  );
  const values = JSON.parse(output) as Record<string, unknown>;
  for (const name of CONTRACT_VALUES) {
    if (values[name] === undefined) throw new Error(`@catalog/contracts has no runtime value ${name}`);
  }
  return values;
}

const inlineContract: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'inline-contract-values',
  setup(build) {
    build.onResolve({ filter: /^@catalog\/contracts$/ }, () => ({
      path: 'contract',
      namespace: 'contract-values',
    }));
    build.onLoad({ filter: /.*/, namespace: 'contract-values' }, () => ({
      contents: Object.entries(readContractValues())
        .map(([name, value]) => `export const ${name} = ${JSON.stringify(value)};`)
        .join('\n'),
      loader: 'js',
    }));
  },
};

const shared: Options = {
  target: 'node20.18',
  platform: 'node',
  // tsup strips `node:` by default; node:sqlite (and any later node:-only module) exists only with it.
  removeNodeProtocol: false,
  tsconfig: 'tsconfig.build.json',
  sourcemap: true,
  esbuildPlugins: [inlineContract],
  dts: true,
};

export default defineConfig([
  { ...shared, entry: { index: 'src/index.ts' }, format: ['esm', 'cjs'], clean: true },
  { ...shared, entry: { 'cli/bin': 'src/cli/bin.ts' }, format: ['esm'], dts: false },
]);
