// Contract error codes and their HTTP status (spec 7.3), read off the ErrorCode schema.
import { catalogApiDocument } from './documents.ts';
import type { ErrorCode } from './types.ts';

export type ErrorStatus = 400 | 401 | 403 | 404 | 412 | 428 | 500 | 503 | 504;

const errorCode = catalogApiDocument.components.schemas.ErrorCode;

/** Every contract error code with the HTTP status it comes with. */
export const ERROR_CODES: Readonly<Record<ErrorCode, ErrorStatus>> = errorCode['x-http-status'];

/** The codes in the order of the table. */
export const ERROR_CODE_LIST: readonly ErrorCode[] = errorCode.enum;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}
