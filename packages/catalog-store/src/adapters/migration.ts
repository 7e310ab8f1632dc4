export interface Migration {
  /** Consecutive from 1; never renumber or edit a released migration, add a new one. */
  version: number;
  name: string;
  sql: string;
}

/** The database was migrated by newer code than this; running on it could corrupt it. */
export class SchemaTooNewError extends Error {
  constructor(found: number, known: number) {
    super(
      `The database schema is at version ${found}, newer than this code knows (${known}); upgrade the code`,
    );
    this.name = 'SchemaTooNewError';
  }
}
