// A figure of a `.bench/*.json` results file, as scripts/performance-report.mjs reads them.
export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  group?: string;
  metric?: string;
}

export const round = (value: number) => Number(value.toPrecision(4));

/** With a baseline, the ratio value / baseline too. */
export function figure(name: string, value: number, unit: string, more: Partial<Figure> = {}): Figure {
  const out: Figure = { name, value: round(value), unit, ...more };
  if (more.baseline !== undefined) {
    out.baseline = round(more.baseline);
    out.ratio = round(value / more.baseline);
  }
  return out;
}

/** Milliseconds as the benches print them. */
export const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(0));
