// A full pass parses and drops some 300 MB of page objects a second. V8 answers a steady allocation
// rate by growing the young generation to its largest size (three 32 MB semi-spaces on a 64-bit
// machine with memory to spare), which stays resident: 365 MB peak RSS for a pass of 1M products whose
// live heap never passed 50 MB. Semi-spaces of 4 MB cost no throughput here (the pages die young
// either way). What remained was glibc's heap, which kept the freed megabyte buffers of the responses
// and the output in place: serving every allocation of 128 KiB or more from its own mapping, returned
// when freed, took the peak of a 1M pass from 195–225 MB to 180–195 MB. V8 and glibc read both only
// when the process starts, so the runner replaces itself, before doing anything, with the same command.

const SEMI_SPACE_FLAG = '--max-semi-space-size';
const SEMI_SPACE_MB = 4;
const MMAP_THRESHOLD_BYTES = 128 * 1024;

type Execve = (file: string, args: readonly string[], env: NodeJS.ProcessEnv) => never;

/**
 * Re-executes the process (same pid, same standard streams; other inherited descriptors are closed)
 * with 4 MB semi-spaces and glibc's MALLOC_MMAP_THRESHOLD_ at 128 KiB, unless the command line or
 * NODE_OPTIONS already sets a semi-space size (the operator's choice wins, and nothing is changed) or
 * the platform has no `process.execve` (Node.js before 22.15/23.11, Windows): there it simply goes on.
 * A MALLOC_MMAP_THRESHOLD_ already in the environment is kept; other C libraries ignore the variable.
 */
export function relaunchWithMemorySettings(): void {
  const execve = (process as unknown as { execve?: Execve }).execve;
  const script = process.argv[1];
  if (typeof execve !== 'function' || script === undefined) return;
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((flag) => flag === SEMI_SPACE_FLAG || flag.startsWith(`${SEMI_SPACE_FLAG}=`))) return;
  execve.call(
    process,
    process.execPath,
    [
      process.execPath,
      `${SEMI_SPACE_FLAG}=${SEMI_SPACE_MB}`,
      ...process.execArgv,
      script,
      ...process.argv.slice(2),
    ],
    { MALLOC_MMAP_THRESHOLD_: String(MMAP_THRESHOLD_BYTES), ...process.env },
  );
}
