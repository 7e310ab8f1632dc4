// @catalog/contracts: the OpenAPI documents of the catalog API and the token server, the types generated from
// them, constants read off them, and validators compiled from them.

export * from './documents.ts';
export * from './fields-and-errors.ts';
export type * as AuthServer from './generated/auth-server.ts';
export type * as CatalogApi from './generated/catalog-api.ts';
export * from './identity.ts';
export * from './limits.ts';
export * from './operations.ts';
export * from './scopes.ts';
export * from './sign-in-error.ts';
export * from './sort.ts';
export type * from './types.ts';
export type { RequestValidator, RequestValidators } from './validation/contract-validators.ts';
export type { RequestView, ValidatedBody } from './validation/request-types.ts';
export type { RequestInput, ResponseIssue, ValidationIssue, ValidationResult } from './validation/types.ts';
export * from './validators.ts';
