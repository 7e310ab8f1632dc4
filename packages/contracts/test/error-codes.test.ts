import { describe, expect, it } from 'vitest';
import { catalogApiDocument, ERROR_CODE_LIST, ERROR_CODES, isErrorCode } from '../src/index.ts';
import { listOperations } from '../src/openapi-lookup.ts';

describe('spec 7.3: error codes and their status', () => {
  it("are the table of 7.3, and the admin writes' two precondition codes after it", () => {
    expect(ERROR_CODES).toEqual({
      INVALID_SYNC_TOKEN: 400,
      SEARCH_TERM_TOO_LONG: 400,
      INVALID_SORT_FIELD: 400,
      INVALID_SORT: 400,
      INVALID_PARAMETER: 400,
      VALIDATION_ERROR: 400,
      UNAUTHORIZED: 401,
      FORBIDDEN: 403,
      NOT_FOUND: 404,
      INTERNAL_ERROR: 500,
      SEARCH_INCOMPLETE: 503,
      IDENTIFIER_LOOKUP_INCOMPLETE: 503,
      SEARCH_TIMEOUT: 504,
      PRECONDITION_FAILED: 412,
      PRECONDITION_REQUIRED: 428,
    });
    expect(ERROR_CODE_LIST).toEqual(Object.keys(ERROR_CODES));
    expect(Object.keys(catalogApiDocument.components.schemas.ErrorCode['x-enum-descriptions'])).toEqual(
      ERROR_CODE_LIST,
    );
  });

  it('isErrorCode accepts the codes only', () => {
    expect(isErrorCode('NOT_FOUND')).toBe(true);
    expect(isErrorCode('not_found')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
  });

  it('every x-error-code of the document is a contract code', () => {
    const codes = new Set<string>([catalogApiDocument['x-default-error-code']]);
    for (const parameter of Object.values(catalogApiDocument.components.parameters)) {
      if ('x-error-code' in parameter) codes.add(parameter['x-error-code']);
    }
    for (const schema of Object.values(catalogApiDocument.components.schemas)) {
      if ('x-error-code' in schema) codes.add(schema['x-error-code']);
    }
    for (const code of codes) expect(ERROR_CODE_LIST).toContain(code);
  });

  it('a parameter whose failure has its own code carries it as x-error-code', () => {
    const p = catalogApiDocument.components.parameters;
    expect(p.SearchTerm['x-error-code']).toBe('SEARCH_TERM_TOO_LONG');
    expect(p.SortColumn['x-error-code']).toBe('INVALID_SORT_FIELD');
    expect(p.SortOrder['x-error-code']).toBe('INVALID_SORT');
    expect(p.SyncToken['x-error-code']).toBe('INVALID_SYNC_TOKEN');
    expect(catalogApiDocument['x-default-error-code']).toBe('VALIDATION_ERROR');
  });

  it('every error response of GET /products/search is documented (400, 401, 403, 429, 500, 503, 504)', () => {
    const search = listOperations(catalogApiDocument).get('searchProducts');
    expect(Object.keys(search?.operation.responses ?? {})).toEqual([
      '200',
      '400',
      '401',
      '403',
      '429',
      '500',
      '503',
      '504',
    ]);
  });
});
