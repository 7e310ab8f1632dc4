// Zipf-distributed picks over a list: the item of rank r (1-based) is drawn with weight 1 / r^s.
// Storefront traffic repeats a few queries often and many rarely; a mix shaped like that neither
// flatters a cache with one repeated query nor hides one either.

/** Returns a function drawing an index in [0, n) with Zipf weights, from the given uniform source. */
export function zipfSampler(n: number, s: number, uniform: () => number): () => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let rank = 1; rank <= n; rank += 1) {
    sum += 1 / rank ** s;
    cumulative[rank - 1] = sum;
  }
  return () => {
    const target = uniform() * sum;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((cumulative[mid] as number) < target) low = mid + 1;
      else high = mid;
    }
    return low;
  };
}
