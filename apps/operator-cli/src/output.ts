/** Where commands write: stdout for results, stderr for progress and errors. */
export interface Output {
  out(line: string): void;
  err(line: string): void;
  /** Whether stderr is a terminal (progress bars only then). */
  interactive: boolean;
}

export const processOutput: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  interactive: process.stderr.isTTY === true,
};

/**
 * Commander's writers, onto an Output: its usage errors and help land where the command's own
 * lines do, so a program run in-process is observed as a process's streams would be.
 */
export function commanderWriters(output: Output) {
  const line = (text: string) => text.replace(/\n$/, '');
  return {
    writeOut: (text: string) => output.out(line(text)),
    writeErr: (text: string) => output.err(line(text)),
  };
}
