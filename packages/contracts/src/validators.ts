// Request and response validators of both documents, compiled from the runtime copies of the documents.
import {
  type AuthServerDocument,
  authServerDocument,
  type CatalogApiDocument,
  catalogApiDocument,
} from './documents.ts';
import type * as AuthServer from './generated/auth-server.ts';
import type * as CatalogApi from './generated/catalog-api.ts';
import type { ErrorCode, TokenErrorCode } from './types.ts';
import { createContractValidators } from './validation/contract-validators.ts';
import type { ValidRequest } from './validation/request-types.ts';

const catalogApi = createContractValidators<CatalogApiDocument, CatalogApi.operations, ErrorCode>(
  catalogApiDocument,
  'catalog-api',
);
const authServer = createContractValidators<AuthServerDocument, AuthServer.operations, TokenErrorCode>(
  authServerDocument,
  'auth-server',
);

/** A validated catalog API request of `Id`. */
export type CatalogRequest<Id extends keyof CatalogApi.operations> = ValidRequest<
  CatalogApiDocument,
  CatalogApi.operations,
  Id
>;
/** A validated token server request of `Id`. */
export type AuthServerRequest<Id extends keyof AuthServer.operations> = ValidRequest<
  AuthServerDocument,
  AuthServer.operations,
  Id
>;

export const validateRequest = catalogApi.validateRequest;
export const requestValidators = catalogApi.requestValidators;
export const validateResponse = catalogApi.validateResponse;
export const catalogApiAjv = catalogApi.ajv;

export const validateAuthServerRequest = authServer.validateRequest;
export const authServerRequestValidators = authServer.requestValidators;
export const validateAuthServerResponse = authServer.validateResponse;
export const authServerAjv = authServer.ajv;
