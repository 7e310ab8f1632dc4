import type { SQLInputValue } from 'node:sqlite';

export type Params = Record<string, SQLInputValue>;

const namesBySql = new Map<string, string[]>();

/** The named parameters of a statement, scanned once per statement text (there are few texts). */
function namesOf(sql: string): string[] {
  let names = namesBySql.get(sql);
  if (names === undefined) {
    names = [...new Set(Array.from(sql.matchAll(/:([A-Za-z_]\w*)/g), (match) => match[1] as string))];
    namesBySql.set(sql, names);
  }
  return names;
}

/** node:sqlite rejects named parameters the statement does not use, so pass only those it does. */
export function bind(sql: string, params: Params): Params {
  const used: Params = {};
  for (const name of namesOf(sql)) {
    const value = params[name];
    if (value === undefined) throw new Error(`no value bound for :${name}`);
    used[name] = value;
  }
  return used;
}
