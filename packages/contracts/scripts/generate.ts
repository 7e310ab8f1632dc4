// Generates src/generated/* from the OpenAPI documents in openapi/ (generated-files.ts).
//
//   node scripts/generate.ts           write the generated files
//   node scripts/generate.ts --check   exit 1 (naming the stale files) when a file on disk differs
//
// Paths are resolved from this script's location, not the cwd.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedDir, renderGeneratedFiles, staleGeneratedFiles } from './generated-files.ts';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

async function check(files: Map<string, string>): Promise<number> {
  const stale = await staleGeneratedFiles(packageDir, files);
  if (stale.length === 0) {
    console.log(`contracts: ${files.size} generated files are up to date.`);
    return 0;
  }
  console.error(
    [
      'contracts: generated files are stale (they do not match the OpenAPI documents):',
      ...stale.map((path) => `  - ${path}`),
      'Run `pnpm run contracts:generate` in packages/contracts and commit the result.',
    ].join('\n'),
  );
  return 1;
}

async function write(files: Map<string, string>): Promise<number> {
  await mkdir(generatedDir(packageDir), { recursive: true });
  for (const [path, content] of files) {
    await writeFile(path, content);
    console.log(`contracts: wrote ${relative(packageDir, path)}`);
  }
  return 0;
}

const files = await renderGeneratedFiles(packageDir);
process.exitCode = process.argv.includes('--check') ? await check(files) : await write(files);
