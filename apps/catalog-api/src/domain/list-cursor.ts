import { ServiceError } from '@catalog/contracts';

// The deprecated GET /products pages by insertion sequence; its `lastKey` is that position as base64 JSON.

export function encodeListCursor(afterSeq: number): string {
  return Buffer.from(JSON.stringify({ afterSeq }), 'utf8').toString('base64');
}

export function decodeListCursor(lastKey: string): number {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(lastKey, 'base64').toString('utf8'));
    const afterSeq = (decoded as { afterSeq?: unknown }).afterSeq;
    if (typeof afterSeq === 'number' && Number.isSafeInteger(afterSeq) && afterSeq >= 0) return afterSeq;
  } catch {
    // falls through to the same answer as a well-formed but meaningless cursor
  }
  throw ServiceError.of('VALIDATION_ERROR', 'lastKey is not a cursor this service issued', {
    details: { field: 'lastKey', reason: 'must be the lastKey of a previous response' },
  });
}
