import { type Brand, identifierKey, type ProductRecord, type WebChannel } from '@catalog/store';
import { HashedIds } from './hashed-ids.ts';
import { InternedColumn } from './interned-column.ts';
import { grownFloat64 } from './product-tokens.ts';
import { RoaringBitmap32 } from './roaring.ts';
import { TextArena } from './text-arena.ts';
import { TextIndex } from './text-index.ts';

/** The FTS5 engine's sort columns hold a missing price or cost as this (coalesce(price, -1e300)). */
export const UNSET_NUMBER = -1e300;

/** A product's visibility in one web channel where it says so itself. */
interface ChannelVisibility {
  visible: RoaringBitmap32;
  hidden: RoaringBitmap32;
}

/**
 * The catalogue as a search needs it, in memory, by product seq (the source's own dense ids):
 * which products exist and are live, the filter and facet columns with a bitmap per value, the
 * sort columns' values, the web channels' visibility, the identifier keys and the text. Fed with
 * whole records (the change feed's, or a snapshot's); nothing here reads storage.
 */
export class CatalogueIndex {
  readonly all = new RoaringBitmap32();
  readonly live = new RoaringBitmap32();
  /** display_on_web = true: the default where a channel says nothing. */
  readonly shownByDefault = new RoaringBitmap32();
  readonly text = new TextIndex();
  readonly brandName = new InternedColumn(true);
  readonly category = new InternedColumn(true);
  readonly department = new InternedColumn(true);
  readonly subDepartment = new InternedColumn(false);
  readonly stockType = new InternedColumn(true);
  readonly brands = new Map<string, Brand>();
  readonly #channels = new Map<string, ChannelVisibility>();
  /** Seqs by the identifier key of their productCode or erpCode (both keys are added). */
  readonly #identifiers = new HashedIds(
    (seq, key) =>
      identifierKey(this.productCode.get(seq)) === key || identifierKey(this.#erpCode.get(seq)) === key,
  );
  readonly name = new TextArena();
  readonly productCode = new TextArena();
  readonly #erpCode = new TextArena();
  price = new Float64Array(1024);
  supplierCost = new Float64Array(1024);
  createdAt = new Float64Array(1024);
  updatedAt = new Float64Array(1024);
  /** Bumped by every change of a product: what a cache built from the index is keyed on. */
  generation = 0;
  /** Sets every changed seq is added to: each sort order's products changed since it was built. */
  readonly #changeSets = new Set<RoaringBitmap32>();

  /** Records as the change feed or a snapshot part carries them: channels and brands before products. */
  apply(records: {
    readonly webChannels: readonly WebChannel[];
    readonly brands: readonly Brand[];
    readonly products: readonly ProductRecord[];
  }): void {
    for (const channel of records.webChannels) this.setChannel(channel);
    for (const brand of records.brands) this.setBrand(brand);
    for (const product of records.products) this.setProduct(product);
  }

  setChannel(channel: WebChannel): void {
    if (!this.#channels.has(channel.slug)) {
      this.#channels.set(channel.slug, { visible: new RoaringBitmap32(), hidden: new RoaringBitmap32() });
    }
  }

  setBrand(brand: Brand): void {
    this.brands.set(brand.id, brand);
  }

  setProduct(record: ProductRecord): void {
    const { seq } = record;
    this.#forget(seq);
    this.all.add(seq);
    if (!record.archived) this.live.add(seq);
    if (record.displayOnWeb === true) this.shownByDefault.add(seq);
    for (const [slug, visible] of Object.entries(record.webVisibility)) {
      const channel = this.#channels.get(slug);
      (visible ? channel?.visible : channel?.hidden)?.add(seq);
    }
    this.brandName.set(seq, record.brandName);
    this.category.set(seq, record.category);
    this.department.set(seq, record.department);
    this.subDepartment.set(seq, record.subDepartment);
    this.stockType.set(seq, record.stockType);
    this.name.set(seq, record.name);
    this.productCode.set(seq, record.productCode);
    this.#erpCode.set(seq, record.erpCode);
    for (const key of new Set([identifierKey(record.productCode), identifierKey(record.erpCode)])) {
      if (key !== '') this.#identifiers.add(key, seq);
    }
    this.#grow(seq);
    this.price[seq] = record.price ?? UNSET_NUMBER;
    this.supplierCost[seq] = record.supplierCost ?? UNSET_NUMBER;
    this.createdAt[seq] = Date.parse(record.createdAt);
    this.updatedAt[seq] = Date.parse(record.updatedAt);
    this.text.set(seq, record);
    for (const changes of this.#changeSets) changes.add(seq);
    this.generation += 1;
  }

  /** Gives back what the bitmaps reserved while they grew: after a bulk load. */
  shrink(): void {
    this.text.shrink();
    for (const arena of [this.name, this.productCode, this.#erpCode]) arena.shrink();
    for (const column of [this.brandName, this.category, this.department, this.stockType]) {
      for (const bitmap of column.bitmaps) bitmap.shrinkToFit();
    }
    for (const bitmap of [this.all, this.live, this.shownByDefault]) bitmap.shrinkToFit();
  }

  /** A set that collects every seq changed from now on, until `untrack`. */
  track(): RoaringBitmap32 {
    const changes = new RoaringBitmap32();
    this.#changeSets.add(changes);
    return changes;
  }

  untrack(changes: RoaringBitmap32): void {
    this.#changeSets.delete(changes);
  }

  /** Takes the product's earlier state out of every bitmap and list that holds it. */
  #forget(seq: number): void {
    if (!this.all.has(seq)) return;
    this.live.delete(seq);
    this.shownByDefault.delete(seq);
    for (const channel of this.#channels.values()) {
      channel.visible.delete(seq);
      channel.hidden.delete(seq);
    }
    // Before the codes are overwritten: the table checks a slot against them.
    for (const key of new Set([
      identifierKey(this.productCode.get(seq)),
      identifierKey(this.#erpCode.get(seq)),
    ])) {
      if (key !== '') this.#identifiers.remove(key, seq);
    }
  }

  #grow(seq: number): void {
    if (seq < this.price.length) return;
    this.price = grownFloat64(this.price, seq, 0);
    this.supplierCost = grownFloat64(this.supplierCost, seq, 0);
    this.createdAt = grownFloat64(this.createdAt, seq, 0);
    this.updatedAt = grownFloat64(this.updatedAt, seq, 0);
  }

  /** Products whose productCode or erpCode has this identifier key. */
  identifierHits(key: string): number[] {
    return this.#identifiers.find(key);
  }

  /** Whether the channel is registered: an unknown channel's callers see the stored default. */
  hasChannel(slug: string): boolean {
    return this.#channels.has(slug);
  }

  /**
   * The products a caller in `channel` (null: none) sees on the web: the channel's own value where
   * a product has one, else the stored default, a missing default meaning not visible.
   */
  shownOnWeb(channel: string | null): RoaringBitmap32 {
    const own = channel === null ? undefined : this.#channels.get(channel);
    if (own === undefined) return this.shownByDefault.clone();
    const shown = RoaringBitmap32.andNot(this.shownByDefault, own.hidden);
    return shown.orInPlace(own.visible);
  }
}
