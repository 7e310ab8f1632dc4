import { externalProductJson, type ProductView } from './external-product.ts';
import type { ProductRecord } from './product.ts';
import { displayOnWebFor } from './visibility.ts';

/**
 * A product's /products/search hit kept ready to send: the external JSON of every allowed field
 * (relation entries without codes, as search returns them), with the one field that depends on the
 * caller, displayOnWeb, cut out and put back per request. Another `fields` selection or the
 * GET /products/{id} view is rendered from the record instead.
 */
export interface SearchDocument {
  /** The external JSON without displayOnWeb. */
  body: string;
  /** Where `"displayOnWeb":…,` goes back into body. */
  displayOnWebAt: number;
  /** The product's stored default (null: none configured). */
  displayOnWeb: boolean | null;
}

const MARK = '"displayOnWeb":true,';

/** The views a stored document can answer. */
export function servesFromSearchDocument(view: ProductView): boolean {
  return view.fields === undefined && !view.withRelationCodes;
}

export function searchDocumentOf(record: ProductRecord): SearchDocument {
  // Rendered with the flag forced on so that the field is certainly there to be cut out. Inside
  // JSON text a string value's quotes are escaped, so the mark can only be the key itself.
  const json = externalProductJson(
    { ...record, displayOnWeb: true },
    { channel: null, withRelationCodes: false },
  );
  const at = json.indexOf(MARK);
  if (at < 0) throw new Error('the product representation must have displayOnWeb before its last field');
  return {
    body: json.slice(0, at) + json.slice(at + MARK.length),
    displayOnWebAt: at,
    displayOnWeb: record.displayOnWeb,
  };
}

/**
 * The hit as `view.channel` sees it (spec 2.1). `channelValue` is the product's explicit value for
 * that channel, if it has one.
 */
export function searchDocumentJson(
  document: SearchDocument,
  channel: string | null,
  channelValue: boolean | undefined,
): string {
  const visible =
    channel === null
      ? (document.displayOnWeb ?? undefined)
      : displayOnWebFor(
          {
            displayOnWeb: document.displayOnWeb,
            webVisibility: channelValue === undefined ? {} : { [channel]: channelValue },
          },
          channel,
        );
  if (visible === undefined) return document.body;
  const { body, displayOnWebAt: at } = document;
  return `${body.slice(0, at)}"displayOnWeb":${visible},${body.slice(at)}`;
}
