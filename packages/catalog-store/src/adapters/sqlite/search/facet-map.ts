import type { DatabaseSync } from 'node:sqlite';
import type { ProductAggregations } from '../../../model/search.ts';
import { statement } from '../statement-cache.ts';
import { EngineFailure } from './engine-failures.ts';

export type FacetCombination = Record<keyof ProductAggregations, string>;

/** Receives each combination found and how many products have it. */
export type CombinationSink = (combination: FacetCombination, n: number) => void;

/**
 * Each product's facet combination (product_facets, store migration 5), held in memory for one
 * connection. A search catches it up with its read snapshot first: the rows changed since, by the
 * trigger-kept clock, whoever wrote them. The first load reads the whole table: about 0.2 s in a
 * new worker at 1M products, of which the SQL 0.07 s (through the `changed` index, 0.12 s).
 */
class FacetMap {
  #clock = 0;
  /** Combination id by product seq; 0 = none. */
  #combinationBySeq = new Int32Array(1024);
  /** Combination values by id (ids start at 1). */
  readonly #combinations: FacetCombination[] = [];

  /** Brings the map to the caller's read snapshot (run inside it). */
  catchUp(db: DatabaseSync): void {
    const { n: clock } = statement(db, 'SELECT n FROM product_facets_clock').get() as { n: number };
    if (clock === this.#clock) return;
    const columns = 'json_group_array(seq) AS seqs, json_group_array(combination) AS combinations';
    const changed = (
      this.#clock === 0
        ? statement(db, `SELECT ${columns} FROM product_facets`).get()
        : statement(db, `SELECT ${columns} FROM product_facets WHERE changed > ?`).get(this.#clock)
    ) as { seqs: string; combinations: string };
    const seqs = JSON.parse(changed.seqs) as number[];
    const combinations = JSON.parse(changed.combinations) as number[];
    const newCombinations = statement(
      db,
      `SELECT id, brand_name AS brandName, category, department, stock_type AS stockType
       FROM facet_combinations WHERE id >= ? ORDER BY id`,
    ).all(this.#combinations.length) as Array<FacetCombination & { id: number }>;
    for (const { id, ...values } of newCombinations) this.#combinations[id] = values;
    const maxSeq = seqs.reduce((max, seq) => Math.max(max, seq), 0);
    if (maxSeq >= this.#combinationBySeq.length) this.#grow(maxSeq);
    for (let i = 0; i < seqs.length; i += 1) {
      this.#combinationBySeq[seqs[i] as number] = combinations[i] as number;
    }
    this.#clock = clock;
  }

  /** How many of `seqs` have each combination (every seq must be a product of the snapshot). */
  count(seqs: readonly number[], sink: CombinationSink): void {
    const counts = new Int32Array(this.#combinations.length);
    for (const seq of seqs) {
      const combination = seq < this.#combinationBySeq.length ? (this.#combinationBySeq[seq] as number) : 0;
      if (combination === 0) throw new EngineFailure(`product ${seq} has no facet combination`);
      counts[combination] = (counts[combination] as number) + 1;
    }
    counts.forEach((n, id) => {
      if (n > 0) sink(this.#combinations[id] as FacetCombination, n);
    });
  }

  #grow(maxSeq: number): void {
    let length = this.#combinationBySeq.length;
    while (length <= maxSeq) length *= 2;
    const grown = new Int32Array(length);
    grown.set(this.#combinationBySeq);
    this.#combinationBySeq = grown;
  }
}

const maps = new WeakMap<DatabaseSync, FacetMap>();

/** The connection's facet map, brought to the caller's read snapshot (run inside it). */
export function caughtUpFacetMap(db: DatabaseSync): Pick<FacetMap, 'count'> {
  let map = maps.get(db);
  if (map === undefined) {
    map = new FacetMap();
    maps.set(db, map);
  }
  map.catchUp(db);
  return map;
}
