// Query objects as natural code writes them: booleans for the contract's "true"/"false" parameters and
// string arrays for its comma-separated lists, serialised here (the contract's strings are still accepted).

type ContractBoolean = 'true' | 'false';
/** `boolean` when `V` is exactly the contract's "true" | "false", else nothing. */
type BooleanFor<V> = [Exclude<V, undefined>] extends [ContractBoolean]
  ? [ContractBoolean] extends [Exclude<V, undefined>]
    ? boolean
    : never
  : never;

/** The contract's query type `Q`, with booleans for its "true"/"false" values and arrays for `ListKeys`. */
export type NaturalQuery<Q, ListKeys extends keyof Q = never> = {
  [K in keyof Q]: K extends ListKeys ? Q[K] | readonly string[] : Q[K] | BooleanFor<Q[K]>;
};

function serialise(value: unknown): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

/** Builds `base + path?query`, leaving out undefined values. */
export function buildUrl(base: URL, path: string, query: object = {}): URL {
  const url = new URL(path.replace(/^\//u, ''), base);
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) url.searchParams.set(name, serialise(value));
  }
  return url;
}
