import { createHash } from 'node:crypto';
import type { NormalisedProductQuery } from './normalise-product-query.ts';

/**
 * What a cursor is bound to: everything that decides the match set and its order. Page size and
 * offset are left out, so a client may halve its size mid-walk (spec 4.4 step 8).
 */
export function queryFingerprint(query: NormalisedProductQuery): string {
  const identity = [
    query.terms,
    query.identifier,
    query.brandName,
    query.updatedAfterMs,
    query.includeArchived,
    query.displayOnWeb,
    query.channel,
    query.orderBy,
    query.direction,
  ];
  return createHash('sha256').update(JSON.stringify(identity)).digest('base64url').slice(0, 22);
}
