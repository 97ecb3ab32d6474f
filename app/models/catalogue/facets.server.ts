// A product list's filters by option value and their counts (docs/decisions/0036): a category's
// products, or a search's matches, read from variant_facets (migration 0034), one row per active
// variant and option value with the product's category, price and featured flag and the variant's
// stock beside it. The rules, in one place:
// - a product matches the chosen values when ONE of its active variants has a chosen value of every
//   chosen option (several values of one option: any of them; different options: all of them);
// - availability is that variant's: "In Stock" wants a matching variant with stock, "Out of Stock"
//   a product none of whose matching variants has any (without chosen values every active variant
//   matches, so this is the product's own stock, as before);
// - price ranges and "Featured" are the product's (its lowest price, what its card shows);
// - a value's count is how many products the list would show with that value chosen for its option
//   instead of the option's own choice, every other filter kept (the usual faceting rule).
import type { Expression, RawBuilder, SqlBool } from "kysely";
import { sql } from "kysely";
import type { Db } from "~/lib/db.server";
import { isPostgres, toCount } from "~/lib/db.server";
import type { CategoryQuery } from "~/utils/catalogue-schemas";
import type { Facet, FacetValue, OptionChoice } from "~/utils/option-filters";
import { hasChoice } from "~/utils/option-filters";
import { priceAndFeatured } from "./list-filters.server";

/** Which products a list is of: a category's, or a search's matches (at most SEARCH_MAX_RESULTS ids). */
export type FacetScope = { categoryId: number } | { itemIds: number[] };

/** A list's query with its chosen option values. */
export type FilteredQuery = CategoryQuery & { options?: OptionChoice };

const ref = (alias: string, column: string) => sql.ref(`${alias}.${column}`);

function inScope(db: Db, scope: FacetScope, alias: string): RawBuilder<SqlBool> {
  if ("categoryId" in scope) return sql<SqlBool>`${ref(alias, "category_id")} = ${scope.categoryId}`;
  // The ids as one parameter (PostgreSQL an int[], SQLite a JSON array): one short statement to prepare.
  return isPostgres(db)
    ? sql<SqlBool>`${ref(alias, "item_id")} = any(${scope.itemIds}::int[])`
    : sql<SqlBool>`${ref(alias, "item_id")} in (select value from json_each(${JSON.stringify(scope.itemIds)}))`;
}

const only = (query: CategoryQuery) => (query.availability.length === 1 ? query.availability[0] : undefined);

/** The rows of `alias` in scope that pass the product's filters and, for "In Stock", are of a variant with stock. */
function rowConditions(db: Db, scope: FacetScope, query: CategoryQuery, alias: string): Expression<SqlBool>[] {
  const parts: Expression<SqlBool>[] = [inScope(db, scope, alias)];
  parts.push(...priceAndFeatured(query, { price: `${alias}.price`, featured: `${alias}.featured` }));
  if (only(query) === "in-stock") parts.push(sql<SqlBool>`${ref(alias, "in_stock")} = 1`);
  return parts;
}

const values = (list: string[]) => sql.join(list.map((v) => sql`${v}`));

/**
 * Joins to the rows of the same variant that carry each chosen option's values (`g0`, `g1`…),
 * each in scope too, so a database may start from the chosen values' rows.
 */
function sameVariant(db: Db, scope: FacetScope, choice: [string, string[]][], on: string) {
  return choice.map(([option, chosen], i) => {
    const g = `g${i}`;
    return sql`join variant_facets ${sql.raw(g)} on ${ref(g, "variant_id")} = ${ref(on, "variant_id")}
      and ${inScope(db, scope, g)} and ${ref(g, "option_slug")} = ${option} and ${ref(g, "value_slug")} in (${values(chosen)})`;
  });
}

const and = (parts: Expression<SqlBool>[]) => sql.join(parts, sql` and `);
const outOfStockOnly = (query: CategoryQuery, alias: string) =>
  only(query) === "out-of-stock" ? sql`having max(${ref(alias, "in_stock")}) = 0` : sql``;

/**
 * The products that match the chosen values (and the list's other filters), each with its price:
 * a subquery of (id, price). The first chosen option's rows lead; the others join by variant.
 */
export function matchingProducts(db: Db, scope: FacetScope, query: FilteredQuery): RawBuilder<{ id: number; price: number }> {
  const [first, ...rest] = Object.entries(query.options ?? {});
  if (!first) throw new Error("matchingProducts needs a chosen value");
  return sql`select f.item_id as id, max(f.price) as price from variant_facets f ${sql.join(sameVariant(db, scope, rest, "f"), sql` `)}
    where ${and(rowConditions(db, scope, query, "f"))} and f.option_slug = ${first[0]} and f.value_slug in (${values(first[1])})
    group by f.item_id ${outOfStockOnly(query, "f")}`;
}

/** One window of the matching products' ids in the list's order, and how many match. */
export async function matchingPage(
  db: Db,
  scope: FacetScope,
  query: FilteredQuery,
  window: { offset: number; limit: number },
): Promise<{ ids: number[]; total: number }> {
  const matching = matchingProducts(db, scope, query);
  const order =
    query.sort === "price-asc" ? sql`m.price asc, m.id asc` : query.sort === "price-desc" ? sql`m.price desc, m.id desc` : sql`m.id asc`;
  const [page, count] = await Promise.all([
    sql<{ id: number }>`select m.id from (${matching}) m order by ${order} limit ${window.limit} offset ${window.offset}`.execute(db),
    sql<{ n: number | string }>`select count(*) as n from (${matching}) m`.execute(db),
  ]);
  return { ids: page.rows.map((r) => r.id), total: toCount(count.rows[0]?.n ?? 0) };
}

interface CountRow {
  option: string;
  value: string;
  n: number | string;
  vid: number;
}

/**
 * The counts of the values of `options` (one option's slug, or every option but `except`), with
 * `choice` applied on the same variant: products per value, in one pass of the index's order. With
 * "Out of Stock" alone, a product counts for a value when none of its variants with it has stock.
 */
function counted(
  db: Db,
  scope: FacetScope,
  query: CategoryQuery,
  choice: [string, string[]][],
  options: { one?: string; except?: string[] },
) {
  const which =
    options.one !== undefined
      ? sql`f.option_slug = ${options.one}`
      : options.except && options.except.length > 0
        ? sql`f.option_slug not in (${values(options.except)})`
        : sql`1 = 1`;
  const products =
    only(query) === "out-of-stock"
      ? sql`count(distinct f.item_id) - count(distinct case when f.in_stock = 1 then f.item_id end)`
      : sql`count(distinct f.item_id)`;
  return sql<CountRow>`select f.option_slug as option, f.value_slug as value, ${products} as n, min(f.option_value_id) as vid
    from variant_facets f ${sql.join(sameVariant(db, scope, choice, "f"), sql` `)}
    where ${and(rowConditions(db, scope, query, "f"))} and ${which}
    group by f.option_slug, f.value_slug`.execute(db);
}

/**
 * The list's option filters with their counts: every option any product in scope has, its values
 * ordered by their position in the products (then by name), each with how many products it would
 * leave (the other filters applied, the option's own choice not) and whether it is chosen. A chosen
 * value that leaves none is still listed, with 0, so it can be unchosen.
 */
export async function facetsOf(db: Db, scope: FacetScope, query: FilteredQuery): Promise<Facet[]> {
  if ("itemIds" in scope && scope.itemIds.length === 0) return [];
  const choice = Object.entries(query.options ?? {});
  const chosenOptions = choice.map(([option]) => option);
  const results = await Promise.all([
    counted(db, scope, query, choice, { except: chosenOptions }),
    ...choice.map(([option]) =>
      counted(
        db,
        scope,
        query,
        choice.filter(([other]) => other !== option),
        { one: option },
      ),
    ),
  ]);
  const rows = results.flatMap((r) => r.rows).filter((r) => toCount(r.n) > 0);
  return named(db, rows, query.options ?? {});
}

/** The options' and values' names (from one product that has each), in order. */
async function named(db: Db, rows: CountRow[], chosen: OptionChoice): Promise<Facet[]> {
  if (rows.length === 0) return [];
  const names = await db
    .selectFrom("productOptionValues as v")
    .innerJoin("productOptions as o", "o.id", "v.optionId")
    .select(["v.id", "v.value", "v.position", "o.name"])
    .where(
      "v.id",
      "in",
      rows.map((r) => Number(r.vid)),
    )
    .execute();
  const byId = new Map(names.map((n) => [n.id, n]));
  const facets = new Map<string, Facet & { products: number; order: Map<string, number> }>();
  for (const row of rows) {
    const name = byId.get(Number(row.vid));
    if (!name) continue;
    const facet = facets.get(row.option) ?? {
      slug: row.option,
      name: name.name,
      values: [] as FacetValue[],
      products: 0,
      order: new Map<string, number>(),
    };
    facets.set(row.option, facet);
    const count = toCount(row.n);
    facet.products += count;
    facet.order.set(row.value, name.position);
    facet.values.push({ slug: row.value, label: name.value, count, chosen: (chosen[row.option] ?? []).includes(row.value) });
  }
  return [...facets.values()]
    .sort((a, b) => b.products - a.products || a.name.localeCompare(b.name))
    .map(({ slug, name, values: list, order }) => ({
      slug,
      name,
      values: list.sort((a, b) => order.get(a.slug)! - order.get(b.slug)! || a.label.localeCompare(b.label)),
    }));
}

/**
 * The chosen values that name an option and a value some product in scope has (`all`: the list's
 * facets before any filter): anything else in the URL is ignored.
 */
export function knownChoice(choice: OptionChoice | undefined, all: Facet[]): OptionChoice {
  const known: OptionChoice = {};
  if (!hasChoice(choice)) return known;
  for (const [option, chosen] of Object.entries(choice!)) {
    const facet = all.find((f) => f.slug === option);
    const kept = chosen.filter((value) => facet?.values.some((v) => v.slug === value));
    if (kept.length > 0) known[option] = kept;
  }
  return known;
}

/**
 * The facets to show: `counted` (with the filters) over `all` (before any): a chosen value that now
 * leaves no product is shown with 0; options and values that leave none and are not chosen are not.
 */
export function withChosen(all: Facet[], counted: Facet[], choice: OptionChoice): Facet[] {
  // In the order of the list before any filter, so options and values keep their places as filters change.
  const at = (slug: string) => all.findIndex((f) => f.slug === slug);
  const result = counted.map((f) => {
    const order = all[at(f.slug)]?.values.map((x) => x.slug) ?? [];
    return { ...f, values: [...f.values].sort((a, b) => order.indexOf(a.slug) - order.indexOf(b.slug)) };
  });
  for (const [option, chosen] of Object.entries(choice)) {
    const source = all.find((f) => f.slug === option);
    if (!source) continue;
    let facet = result.find((f) => f.slug === option);
    if (!facet) {
      facet = { slug: option, name: source.name, values: [] };
      result.push(facet);
    }
    for (const value of chosen) {
      if (facet.values.some((v) => v.slug === value)) continue;
      const label = source.values.find((v) => v.slug === value)?.label ?? value;
      facet.values.push({ slug: value, label, count: 0, chosen: true });
    }
    const order = source.values.map((x) => x.slug);
    facet.values.sort((a, b) => order.indexOf(a.slug) - order.indexOf(b.slug));
  }
  return result.sort((a, b) => at(a.slug) - at(b.slug));
}
