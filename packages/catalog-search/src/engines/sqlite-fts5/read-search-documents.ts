import type { DatabaseSync } from 'node:sqlite';
import type { ProductRecord, ProductView } from '@catalog/store';
import {
  externalProductJson,
  type SearchDocument,
  searchDocumentJson,
  servesFromSearchDocument,
  statement,
} from '@catalog/store/sqlite-reading';
import type { Hydrate } from './run-product-search.ts';

type DocumentRow = [seq: number, displayOnWeb: number | null, displayOnWebAt: number, body: string];

const rendered = new WeakMap<ProductRecord, { view: string; json: string }>();

function viewKey(view: ProductView): string {
  const fields = view.fields === undefined ? '*' : [...view.fields].sort().join(',');
  return `${view.channel ?? ''}\n${view.withRelationCodes}\n${fields}`;
}

/**
 * Renders records in `view`. A record from a worker's RecordCache keeps its JSON for the last view
 * it was rendered for (callers mostly share one view) and drops it with the record.
 */
function renderRecords(records: readonly ProductRecord[], view: ProductView): Map<number, string> {
  const key = viewKey(view);
  const out = new Map<number, string>();
  for (const record of records) {
    const memo = rendered.get(record);
    if (memo?.view === key) {
      out.set(record.seq, memo.json);
      continue;
    }
    const json = externalProductJson(record, view);
    rendered.set(record, { view: key, json });
    out.set(record.seq, json);
  }
  return out;
}

function storedDocuments(db: DatabaseSync, seqList: string): Map<number, SearchDocument> {
  const select = statement(
    db,
    `SELECT seq, display_on_web, display_on_web_at, body FROM product_documents
     WHERE seq IN (SELECT value FROM json_each(?))`,
  );
  select.setReturnArrays(true);
  const documents = new Map<number, SearchDocument>();
  for (const [seq, flag, at, body] of select.all(seqList) as unknown as DocumentRow[]) {
    documents.set(seq, { body, displayOnWebAt: at, displayOnWeb: flag === null ? null : flag === 1 });
  }
  return documents;
}

/** The explicit values of `channel` for the products of `seqList` that have one. */
function channelValues(db: DatabaseSync, channel: string, seqList: string): Map<number, boolean> {
  const select = statement(
    db,
    `SELECT v.product_seq, v.visible FROM product_channel_visibility v
     WHERE v.channel_id = (SELECT id FROM web_channels WHERE slug = ?)
       AND v.product_seq IN (SELECT value FROM json_each(?))`,
  );
  select.setReturnArrays(true);
  const values = new Map<number, boolean>();
  for (const [seq, visible] of select.all(channel, seqList) as unknown as Array<[number, number]>) {
    values.set(seq, visible === 1);
  }
  return values;
}

/**
 * The hits of a page as JSON text in `view`, in the order of `seqs`, read inside the search's
 * snapshot. Stored documents (migration 6) serve the search view; a product without one (a
 * backfill not finished, a write from outside the store) and any other view are rendered from
 * the records, as `hydrate` loads them.
 */
export function readSearchDocuments(
  db: DatabaseSync,
  seqs: readonly number[],
  view: ProductView,
  hydrate: Hydrate,
): string[] {
  if (seqs.length === 0) return [];
  const seqList = JSON.stringify(seqs);
  const stored = servesFromSearchDocument(view)
    ? storedDocuments(db, seqList)
    : new Map<number, SearchDocument>();
  const missing = seqs.filter((seq) => !stored.has(seq));
  const fromRecords = missing.length === 0 ? null : renderRecords(hydrate(db, missing), view);
  const perChannel =
    view.channel === null || stored.size === 0 ? null : channelValues(db, view.channel, seqList);
  const out: string[] = [];
  for (const seq of seqs) {
    const document = stored.get(seq);
    const json =
      document === undefined
        ? fromRecords?.get(seq)
        : searchDocumentJson(document, view.channel, perChannel?.get(seq));
    if (json !== undefined) out.push(json);
  }
  return out;
}
