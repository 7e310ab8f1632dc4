import type { SQLInputValue } from 'node:sqlite';

export type Params = Record<string, SQLInputValue>;

/** node:sqlite rejects named parameters the statement does not use, so pass only those it does. */
export function bind(sql: string, params: Params): Params {
  const used: Params = {};
  for (const match of sql.matchAll(/:([A-Za-z_]\w*)/g)) {
    const name = match[1] as string;
    const value = params[name];
    if (value === undefined) throw new Error(`no value bound for :${name}`);
    used[name] = value;
  }
  return used;
}
