import type { AuditContext } from '@catalog/store';

/**
 * Who the operator CLI's changes are recorded as in the audit trail: the operator at the host, with
 * no source address and no request (the commands run on the database directly, not over HTTP).
 */
export const OPERATOR_AUDIT: AuditContext = Object.freeze({
  actor: Object.freeze({ kind: 'operator', name: 'operator-cli' } as const),
  sourceIp: null,
  requestId: null,
});
