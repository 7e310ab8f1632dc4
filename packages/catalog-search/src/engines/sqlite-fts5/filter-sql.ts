import type { DatabaseSync } from 'node:sqlite';
import type { NormalisedProductQuery } from '../../query/normalise-product-query.ts';
import type { Params } from './bind.ts';

export interface FilterSql {
  /** Conditions on `p` (products), each starting with AND; '' when there is none. */
  sql: string;
  params: Params;
}

function channelId(db: DatabaseSync, slug: string | null): number | null {
  if (slug === null) return null;
  const row = db.prepare('SELECT id FROM web_channels WHERE slug = ?').get(slug) as
    | { id: number }
    | undefined;
  return row?.id ?? null;
}

/**
 * The filters of spec 4.1. displayOnWeb is evaluated for the caller: a bound client sees its
 * channel's value, falling back to the stored default; missing means not visible.
 */
export function filterSql(db: DatabaseSync, query: NormalisedProductQuery): FilterSql {
  const conditions: string[] = [];
  const params: Params = {};
  if (!query.includeArchived) conditions.push('p.archived = 0');
  if (query.brandName !== null) {
    // The column compares without case (for sorting); "exact" also needs the binary comparison.
    conditions.push('p.brand_name = :brandName AND p.brand_name = :brandName COLLATE BINARY');
    params.brandName = query.brandName;
  }
  if (query.updatedAfterMs !== null) {
    conditions.push('p.updated_at > :updatedAfter');
    params.updatedAfter = query.updatedAfterMs;
  }
  if (query.displayOnWeb !== null) {
    params.displayOnWeb = query.displayOnWeb ? 1 : 0;
    const channel = channelId(db, query.channel);
    if (channel === null) {
      conditions.push('coalesce(p.display_on_web, 0) = :displayOnWeb');
    } else {
      params.channelId = channel;
      conditions.push(
        `coalesce((SELECT v.visible FROM product_channel_visibility v WHERE v.channel_id = :channelId AND v.product_seq = p.seq),
                  p.display_on_web, 0) = :displayOnWeb`,
      );
    }
  }
  return { sql: conditions.map((condition) => ` AND ${condition}`).join(''), params };
}
