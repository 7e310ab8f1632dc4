// The contract's field allowlists, error codes and ServiceError without the validators compiled
// from it: the index pulls in ajv and about a hundred modules, which code that must start quickly
// (a search worker thread) does not need. The index re-exports all of it.

export * from './error-codes.ts';
export * from './fields.ts';
export * from './service-error.ts';
