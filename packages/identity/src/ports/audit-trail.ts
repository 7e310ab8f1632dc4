import type { NewAuditEvent } from '@catalog/store';

/**
 * Where the token server records what administrators and operators did (issue 18): sign-ins,
 * failures, lock-outs, signing-key rotations. Write only: the token server never reads the trail
 * back (the catalog API and `pnpm admin audit` do).
 */
export interface AuditTrail {
  record(event: NewAuditEvent): Promise<void>;
}
