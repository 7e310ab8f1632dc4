export interface Migration {
  /** Consecutive from 1; never renumber or edit a released migration, add a new one. */
  version: number;
  name: string;
  sql: string;
}
