import { ServiceError, type ValidationIssue } from '@catalog/contracts';

/**
 * The first invalid parameter as the contract's 400: its own code where it has one
 * (SEARCH_TERM_TOO_LONG, INVALID_SORT_FIELD, INVALID_SORT, INVALID_SYNC_TOKEN), else
 * VALIDATION_ERROR, with `details {field, reason}` (decisions: Search semantics).
 */
export function invalidRequest(issues: readonly ValidationIssue[]): ServiceError {
  const [first] = issues;
  if (first === undefined) return ServiceError.of('VALIDATION_ERROR', 'The request is invalid');
  const code = first.code === 'INVALID_PARAMETER' ? 'VALIDATION_ERROR' : first.code;
  return new ServiceError(400, code as ServiceError['code'], `${first.field} ${first.reason}`, {
    details: { field: first.field, reason: first.reason },
  });
}
