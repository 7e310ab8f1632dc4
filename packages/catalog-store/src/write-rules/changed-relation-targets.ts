import type { RelatedProductInput } from '../model/product.ts';

type Relation = Pick<RelatedProductInput, 'productId' | 'relationType' | 'qty'>;

/** What a product's "used by" view shows of one owner: its relations to it, in order. */
function entriesByTarget(relations: readonly Relation[]): Map<string, string> {
  const byTarget = new Map<string, string>();
  for (const relation of relations) {
    byTarget.set(
      relation.productId,
      `${byTarget.get(relation.productId) ?? ''}|${relation.relationType}:${relation.qty}`,
    );
  }
  return byTarget;
}

/**
 * The products whose derived "used by" view changes when an owner's relations go from `before` to
 * `after`: they take the write's updatedAt, so an incremental sync sees their new reverse entries.
 */
export function changedRelationTargets(before: readonly Relation[], after: readonly Relation[]): string[] {
  const previous = entriesByTarget(before);
  const next = entriesByTarget(after);
  return [...new Set([...previous.keys(), ...next.keys()])].filter((id) => previous.get(id) !== next.get(id));
}
