// Helpers for other packages' tests against a real PostgreSQL server; not used at run time.

export { createTestDatabase, type TestDatabase } from './test-database.ts';
