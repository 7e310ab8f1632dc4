import type { DatabaseSync } from 'node:sqlite';
import type { ProductRecord, ProductView } from '@catalog/store';
import { appliedSequence, storedSyncTokenSecret } from '@catalog/store/sqlite';
import { inReadTransaction, openDatabase, readProductsBySeq, statement } from '@catalog/store/sqlite-reading';
import type { BrandSearchJob, BrandSearchOutcome } from '../../engine/search-engine.ts';
import { readSearchDocuments } from '../sqlite-fts5/read-search-documents.ts';
import { runBrandSearch } from '../sqlite-fts5/run-brand-search.ts';

/**
 * How the file's state relates to the index's: the embedded records' own file, whose change feed
 * the index follows (the file may be ahead), or a replica file the same target writes in step with
 * the index (PostgreSQL).
 */
export type FileRole = 'records' | 'replica';

/**
 * The catalogue file a bitmap index materialises its pages from, on a read connection of its own.
 * A page is read in one snapshot of the file and only if that snapshot holds its products as the
 * index located them: a product written after the index's position has another representation, or
 * another place in the order, and the page is located again once the index has applied it.
 */
export class CatalogueFile {
  readonly #db: DatabaseSync;
  readonly #role: FileRole;

  constructor(databasePath: string, role: FileRole) {
    this.#db = openDatabase(databasePath, { readOnly: true });
    this.#role = role;
  }

  /** The records of `seqs`, in that order; null when the file has moved on for one of them. */
  records(seqs: readonly number[], applied: number): ProductRecord[] | null {
    return this.#read(seqs, applied, (db) => readProductsBySeq(db, seqs));
  }

  /** The same as JSON in `view`. */
  documents(seqs: readonly number[], applied: number, view: ProductView): string[] | null {
    return this.#read(seqs, applied, (db) =>
      readSearchDocuments(db, seqs, view, (connection, missing) => readProductsBySeq(connection, missing)),
    );
  }

  /** The syncToken key the file was created with: the tokens' key when the deployment gives none. */
  storedSyncTokenSecret(): Uint8Array {
    return storedSyncTokenSecret(this.#db);
  }

  /** Brands are few and live in the file: searched there, in one snapshot, as the FTS5 engine does. */
  brands(job: BrandSearchJob): BrandSearchOutcome {
    return runBrandSearch(this.#db, job);
  }

  close(): void {
    this.#db.close();
  }

  #read<Hit>(seqs: readonly number[], applied: number, read: (db: DatabaseSync) => Hit[]): Hit[] | null {
    return inReadTransaction(this.#db, () => (this.#holds(seqs, applied) ? read(this.#db) : null));
  }

  /** Whether the snapshot shows the products of `seqs` as they were at feed sequence `applied`. */
  #holds(seqs: readonly number[], applied: number): boolean {
    const db = this.#db;
    if (this.#role === 'replica') return appliedSequence(db) === applied;
    const later = statement(
      db,
      `SELECT count(*) AS n FROM change_feed c
       WHERE c.sequence > ? AND (c.entity = 'web-channel'
         OR (c.entity = 'product' AND c.entity_id IN (SELECT id FROM products WHERE seq IN (SELECT value FROM json_each(?)))))`,
    ).get(applied, JSON.stringify(seqs)) as { n: number };
    return later.n === 0;
  }
}
