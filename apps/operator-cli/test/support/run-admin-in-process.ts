import { runAdminCli } from '../../src/admin/run-admin-cli.ts';
import type { Output } from '../../src/output.ts';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `pnpm admin …` run in this test process, its lines captured as its streams would carry them.
 * For read-only commands checked many times over: a child process per call costs seconds on a
 * loaded machine, and the wiring of a real process is checked by the spawned runs beside these.
 */
export async function runAdminInProcess(args: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const output: Output = {
    out: (line) => {
      stdout += `${line}\n`;
    },
    err: (line) => {
      stderr += `${line}\n`;
    },
    interactive: false,
  };
  const code = await runAdminCli(['node', 'admin', ...args], output);
  return { code, stdout, stderr };
}
