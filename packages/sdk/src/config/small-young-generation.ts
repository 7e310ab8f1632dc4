// A full pass parses and drops some 300 MB of page objects a second. V8 answers a steady allocation
// rate by growing the young generation to its largest size (three 32 MB semi-spaces on a 64-bit
// machine with memory to spare), which stays resident: 365 MB peak RSS for a pass of 1M products whose
// live heap never passed 50 MB. Semi-spaces of 4 MB cost no throughput here (the pages die young
// either way) and keep the peak near 180 MB. V8 reads the size only when the process starts, so the
// runner replaces itself, before doing anything, with the same command and the flag in front.

const FLAG = '--max-semi-space-size';
const SEMI_SPACE_MB = 4;

type Execve = (file: string, args: readonly string[], env: NodeJS.ProcessEnv) => never;

/**
 * Re-executes the process (same pid, same descriptors) with a small young generation, unless the
 * command line or NODE_OPTIONS already sets one (the operator's choice wins) or the platform has no
 * `process.execve` (Node.js before 22.15/23.11, Windows): there it simply goes on.
 */
export function relaunchWithSmallYoungGeneration(): void {
  const execve = (process as unknown as { execve?: Execve }).execve;
  const script = process.argv[1];
  if (typeof execve !== 'function' || script === undefined) return;
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((flag) => flag === FLAG || flag.startsWith(`${FLAG}=`))) return;
  execve.call(
    process,
    process.execPath,
    [process.execPath, `${FLAG}=${SEMI_SPACE_MB}`, ...process.execArgv, script, ...process.argv.slice(2)],
    process.env,
  );
}
