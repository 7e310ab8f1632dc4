// catalog-sync's memory bound: it runs with a small young generation and glibc's mmap threshold at
// 128 KiB (src/config/memory-settings.ts), as the same process, unless the operator chose a size.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));
// Preloaded into the runner: at exit, what the process ended as.
const reportAtExit = `data:text/javascript,${encodeURIComponent(
  `import { writeFileSync } from 'node:fs';
   process.on('exit', () => writeFileSync(process.env.REPORT_FILE, JSON.stringify({ pid: process.pid, execArgv: process.execArgv, mmapThreshold: process.env.MALLOC_MMAP_THRESHOLD_ ?? null })));`,
)}`;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sdk-young-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function runVersion(name: string, env: Record<string, string> = {}) {
  const reportFile = join(dir, `${name}.json`);
  const child = execFile(
    process.execPath,
    ['--conditions=source', `--import=${reportAtExit}`, bin, '--version'],
    { env: { PATH: process.env.PATH ?? '', REPORT_FILE: reportFile, ...env } },
  );
  const pid = child.pid;
  const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      err += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve({ stdout: out, stderr: err }) : reject(new Error(`exit ${code}: ${err}`)),
    );
  });
  const report = JSON.parse(await readFile(reportFile, 'utf8')) as {
    pid: number;
    execArgv: string[];
    mmapThreshold: string | null;
  };
  return { pid, stdout, stderr, report };
}

describe('catalog-sync memory settings', () => {
  it('re-executes itself as the same process with --max-semi-space-size=4 and MALLOC_MMAP_THRESHOLD_=131072, its output unchanged', async () => {
    const { pid, stdout, stderr, report } = await runVersion('default');
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(stderr).toBe('');
    expect(report.pid).toBe(pid);
    expect(report.execArgv[0]).toBe('--max-semi-space-size=4');
    expect(report.execArgv).toContain('--conditions=source');
    expect(report.mmapThreshold).toBe('131072');
  });

  it('keeps a threshold the environment sets', async () => {
    const { report } = await runVersion('threshold', { MALLOC_MMAP_THRESHOLD_: '65536' });
    expect(report.execArgv[0]).toBe('--max-semi-space-size=4');
    expect(report.mmapThreshold).toBe('65536');
  });

  it('leaves a process whose operator gave a size in NODE_OPTIONS as it is', async () => {
    const { report } = await runVersion('chosen', { NODE_OPTIONS: '--max-semi-space-size=16' });
    expect(report.execArgv.some((flag) => flag.startsWith('--max-semi-space-size'))).toBe(false);
    expect(report.mmapThreshold).toBeNull();
  });
});
