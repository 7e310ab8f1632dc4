import type { ProductDocumentPage } from '@catalog/store';

/**
 * The GET /products/search body (spec 4.1) around hits the search worker already serialised: the
 * documents are spliced in as they are, so the main thread neither parses nor re-serialises them.
 * Same fields, order and bytes as JSON.stringify of the object form.
 */
export function searchResponseJson(page: ProductDocumentPage): string {
  const rest = JSON.stringify({
    pagination: {
      total: page.total,
      totalIsLowerBound: page.totalIsLowerBound,
      from: page.from,
      size: page.size,
      hasMore: page.hasMore,
      syncToken: page.syncToken,
    },
    syncToken: page.syncToken,
    meta: { queryTimeMs: page.queryTimeMs, source: page.source },
    ...(page.aggregations ? { aggregations: page.aggregations } : {}),
  });
  return `{"data":[${page.documents.join(',')}],${rest.slice(1)}`;
}
