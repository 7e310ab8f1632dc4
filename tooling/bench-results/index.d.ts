/** A figure of a `.bench/*.json` results file, as scripts/performance-report.mjs reads them. */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  /** The same figure of the same run's baseline; with it, `ratio` is value / baseline. */
  baseline?: number;
  ratio?: number;
  /** The table the report puts it in. */
  group?: string;
  metric?: string;
}

export declare const round: (value: number) => number;

export declare const fmt: (ms: number) => string;

/** A figure rounded to four digits; with a baseline, the ratio value / baseline too. */
export declare function figure(name: string, value: number, unit: string, more?: Partial<Figure>): Figure;

/** What a bench reports; the writer adds when it finished and the machine's load average then. */
export interface BenchResults {
  /** Which part of docs/performance.md the file feeds (api, auth, search, load, postgres, sync…). */
  part: string;
  title: string;
  /** The command that reproduces the run. */
  command: string;
  parameters: Record<string, unknown>;
  figures: Figure[];
  notes: string[];
  [more: string]: unknown;
}

/** Writes `results` to `file` (a `.bench/*.json` URL), creating its folder. */
export declare function writeBenchResults(file: URL, results: BenchResults): void;
