import type { CatalogSearch, ProductSearchQuery, ProductView } from '@catalog/store';
import { SORT_FIELDS } from '@catalog/store';

const CHANNELS = [null, 'main-site', 'trade-portal', 'outlet'];

/**
 * Queries over what a replica holds: text (relevance and sorted), every sort column both ways,
 * filters, archived products, offsets, aggregations and each channel's visibility. Generated
 * catalogue words (seed/generate-catalogue.ts) so that text queries match many products.
 */
export function replicaQueries(): Array<{ query: ProductSearchQuery; view: ProductView }> {
  const queries: ProductSearchQuery[] = [
    { size: 50 },
    { q: 'copper', size: 30, includeAggregations: true },
    { q: 'battery pack', size: 30 },
    { q: 'chrome', sort: 'price', order: 'desc', size: 30 },
    { q: 'LM.000.005' },
    { includeArchived: true, size: 50, includeAggregations: true },
    { brandName: 'Torson Trade', sort: 'name', order: 'asc', size: 50 },
    { updatedAfter: '1970-01-01T00:00:00Z', size: 40 },
    { from: 40, size: 20, sort: 'code' },
    ...SORT_FIELDS.flatMap((sort) =>
      (['asc', 'desc'] as const).map((order) => ({ sort, order, size: 25, includeArchived: true })),
    ),
  ];
  return [
    ...queries.map((query) => ({ query, view: { channel: null, withRelationCodes: false } })),
    ...CHANNELS.flatMap((channel) => [
      { query: { channel, displayOnWeb: true, size: 50 }, view: { channel, withRelationCodes: true } },
      { query: { channel, q: 'copper', size: 30 }, view: { channel, withRelationCodes: false } },
    ]),
  ];
}

/** A syncToken's payload without its issue time: what one engine's token says that another's must too. */
function tokenState(token: string | null): unknown {
  if (token === null) return null;
  const { i: _issuedAt, ...state } = JSON.parse(
    Buffer.from(token.split('.')[1] as string, 'base64url').toString(),
  );
  return state;
}

/** Every query's answer, without what differs between two engines answering alike (timings). */
export async function searchAnswers(search: CatalogSearch): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const { query, view } of replicaQueries()) {
    const {
      queryTimeMs: _records,
      source: _recordsSource,
      ...records
    } = await search.productSearch.search(query);
    const {
      queryTimeMs: _documents,
      source: _documentsSource,
      ...documents
    } = await search.productSearch.searchDocuments(query, view);
    answers.push({
      query,
      records: { ...records, syncToken: tokenState(records.syncToken) },
      documents: { ...documents, syncToken: tokenState(documents.syncToken) },
    });
  }
  for (const q of ['', 'torson', 'trade']) {
    const {
      queryTimeMs: _time,
      source: _source,
      ...brands
    } = await search.brandSearch.search({
      q,
      includeArchived: true,
      size: 100,
    });
    answers.push({ brandQuery: q, ...brands });
  }
  return answers;
}
