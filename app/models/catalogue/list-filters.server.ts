// The price and featured filters of a product list as SQL conditions, on the products' own columns
// or on the copies variant_facets keeps beside each variant's option values (migration 0034): one
// rule for the category pages, the search and their option filters' counts.
import type { Expression, RawBuilder, SqlBool } from "kysely";
import { sql } from "kysely";
import type { CategoryQuery } from "~/utils/catalogue-schemas";
import { mergedPriceRanges } from "~/utils/catalogue";

/**
 * The price ranges and the featured flag of a list's query as SQL conditions on these columns: the
 * products' own (items) or their copies beside each variant's option values (variant_facets).
 */
export function priceAndFeatured(query: CategoryQuery, columns: { price: string; featured: string }): Expression<SqlBool>[] {
  const parts: Expression<SqlBool>[] = [];
  const price = sql.ref(columns.price);
  const priceRanges = mergedPriceRanges(query.price);
  // Every range together is every price: no condition.
  if (priceRanges.length && !(priceRanges.length === 1 && priceRanges[0]!.min === null && priceRanges[0]!.max === null)) {
    const ranges = priceRanges.map(({ min, max }) => {
      const bounds: RawBuilder<SqlBool>[] = [];
      if (min !== null) bounds.push(sql<SqlBool>`${price} >= ${min}`);
      if (max !== null) bounds.push(sql<SqlBool>`${price} <= ${max}`);
      return bounds.length === 1 ? bounds[0]! : sql<SqlBool>`(${sql.join(bounds, sql` and `)})`;
    });
    parts.push(ranges.length === 1 ? ranges[0]! : sql<SqlBool>`(${sql.join(ranges, sql` or `)})`);
  }
  if (query.featured) parts.push(sql<SqlBool>`${sql.ref(columns.featured)} = 1`);
  return parts;
}
