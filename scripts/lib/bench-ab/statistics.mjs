// The two numbers an A/B row needs from one side's rounds: the median (robust to one disturbed round)
// and the spread between rounds, which is the noise a B/A ratio has to be read against.

/** The median of `values`; NaN when there are none. */
export function median(values) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * (max − min) / median of `values`, as a fraction: how far rounds of the same side differ. NaN with
 * fewer than two rounds, where no spread was seen.
 */
export function spread(values) {
  if (values.length < 2) return Number.NaN;
  const centre = median(values);
  if (centre === 0) return Number.NaN;
  return (Math.max(...values) - Math.min(...values)) / Math.abs(centre);
}
