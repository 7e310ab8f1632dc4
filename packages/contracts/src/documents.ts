// The OpenAPI documents as runtime objects (the copies the validators compile from).
import { authServerDocument } from './generated/auth-server.document.ts';
import { catalogApiDocument } from './generated/catalog-api.document.ts';

export { authServerDocument, catalogApiDocument };

export type CatalogApiDocument = typeof catalogApiDocument;
export type AuthServerDocument = typeof authServerDocument;
