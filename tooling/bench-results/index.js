import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Four significant digits: what a figure of a noisy measurement can carry. */
export const round = (value) => Number(value.toPrecision(4));

/** Milliseconds as the benches print them. */
export const fmt = (ms) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(0));

export function figure(name, value, unit, more = {}) {
  const out = { name, value: round(value), unit, ...more };
  if (more.baseline !== undefined) {
    out.baseline = round(more.baseline);
    out.ratio = round(value / more.baseline);
  }
  return out;
}

export function writeBenchResults(file, results) {
  const { part, title, command, ...rest } = results;
  const path = fileURLToPath(file);
  mkdirSync(dirname(path), { recursive: true });
  const stamped = {
    part,
    title,
    command,
    finishedAt: new Date().toISOString(),
    loadAverage: loadavg().map((n) => Number(n.toFixed(2))),
    ...rest,
  };
  writeFileSync(path, `${JSON.stringify(stamped, null, 2)}\n`);
}
