import type { Migration } from '../../migration.ts';

/** Drops a product's stored document and queues it for rebuilding before the transaction commits. */
function invalidate(seq: string): string {
  return `
  DELETE FROM product_documents WHERE seq = ${seq};
  INSERT INTO product_documents_stale (seq) SELECT ${seq} WHERE ${seq} IS NOT NULL ON CONFLICT DO NOTHING;`;
}

/** The products whose forward relations name `id`: their entries appear or vanish with it. */
function invalidateOwnersOf(id: string): string {
  return `
  DELETE FROM product_documents WHERE seq IN (SELECT product_seq FROM product_relations WHERE related_id = ${id});
  INSERT INTO product_documents_stale (seq)
    SELECT product_seq FROM product_relations WHERE related_id = ${id} ON CONFLICT DO NOTHING;`;
}

/** A relation row's owner and target: the target's "used by" entries come from the row. */
const invalidateRelationEnds = (row: 'new' | 'old') =>
  `${invalidate(`${row}.product_seq`)}
${invalidate(`(SELECT seq FROM products WHERE id = ${row}.related_id)`)}`;

/**
 * Each product's /products/search hit, stored as the JSON it is sent as (search/search-documents.ts
 * writes and reads it). A keyset sync page of 100 products at 1M products spent about 1.6 ms
 * reading the records from four tables and 0.5 ms rendering them; reading 100 stored documents
 * takes about 0.12 ms. Costs: some 1.5 KB per product of file, and a rebuild of the changed
 * documents inside every write transaction.
 *
 * The triggers alone keep a stored document true: anything a document is built from (the product's
 * row, its forward relations and whether their targets exist, the relations that name it, which
 * give its derived "used by" entries) deletes it in the same statement that changes it, and queues
 * its seq in product_documents_stale. The writer rebuilds the queued documents before it commits
 * (transaction.ts), so readers normally find one; a reader that finds none renders the hit from the
 * record, as before. A channel's visibility is not in the document: it is read per request.
 *
 * Existing products get their documents after the migration, in batches (backfillSearchDocuments),
 * not inside it: rendering needs the record reader, and 1M documents in one transaction would
 * hold the write lock for half a minute.
 */
export const productSearchDocuments: Migration = {
  version: 6,
  name: 'stored product search documents',
  sql: `
CREATE TABLE product_documents (
  seq INTEGER PRIMARY KEY,
  display_on_web INTEGER CHECK (display_on_web IN (0, 1)),
  display_on_web_at INTEGER NOT NULL,
  body TEXT NOT NULL
) STRICT;
CREATE TABLE product_documents_stale (seq INTEGER PRIMARY KEY) STRICT;

CREATE TRIGGER products_document_insert AFTER INSERT ON products BEGIN
${invalidate('new.seq')}
${invalidateOwnersOf('new.id')}
END;
CREATE TRIGGER products_document_update AFTER UPDATE ON products BEGIN
${invalidate('new.seq')}
END;
CREATE TRIGGER products_document_id_update AFTER UPDATE OF id ON products WHEN old.id IS NOT new.id BEGIN
${invalidateOwnersOf('old.id')}
${invalidateOwnersOf('new.id')}
END;
CREATE TRIGGER products_document_delete AFTER DELETE ON products BEGIN
  DELETE FROM product_documents WHERE seq = old.seq;
  DELETE FROM product_documents_stale WHERE seq = old.seq;
${invalidateOwnersOf('old.id')}
END;

CREATE TRIGGER product_relations_document_insert AFTER INSERT ON product_relations BEGIN
${invalidateRelationEnds('new')}
END;
CREATE TRIGGER product_relations_document_update AFTER UPDATE ON product_relations BEGIN
${invalidateRelationEnds('old')}
${invalidateRelationEnds('new')}
END;
CREATE TRIGGER product_relations_document_delete AFTER DELETE ON product_relations BEGIN
${invalidateRelationEnds('old')}
END;
`,
};
