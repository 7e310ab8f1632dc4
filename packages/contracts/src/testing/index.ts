export {
  type DocumentRequest,
  type DocumentRequestValidator,
  documentRequestValidator,
} from './document-request-validator.ts';
