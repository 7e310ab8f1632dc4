// The embedded file's read side and nothing else: opening it, read transactions, cached statements,
// its product rows and search documents, and the errors a read can raise. Exported as
// @catalog/store/sqlite-reading for a search worker thread, which starts on these modules alone
// (the store's index and this adapter's load the whole store, the contract's validators and pg).

export { InvalidSyncTokenError } from '../../errors/search-errors.ts';
export { externalProductJson, type ProductView } from '../../model/external-product.ts';
export {
  type SearchDocument,
  searchDocumentJson,
  servesFromSearchDocument,
} from '../../model/search-document.ts';
export { toBrand } from '../../records/brand-row.ts';
export { openDatabase } from './open-database.ts';
export { readProductsBySeq } from './records/read-products.ts';
export { snapshotVersion } from './snapshot-version.ts';
export { statement } from './statement-cache.ts';
export { inReadTransaction } from './transaction.ts';
