// The storefront's products: one product (by slug or id), a category's page of products with its
// filters and sorts, the featured and related products, and the sitemap's slugs. `toItem` turns a
// row into the Item every page and API answer shows.
import type { Expression, ExpressionBuilder, SelectQueryBuilder, SqlBool } from "kysely";
import { z } from "zod";
import type { ListPage, RowWindow } from "~/lib/paging.server";
import { PRODUCT_PAGE_SIZES } from "~/lib/paging.server";
import type { Db } from "~/lib/db.server";
import { db as defaultDb, toCount } from "~/lib/db.server";
import type { DB, ItemRow } from "~/lib/db-schema";
import type { Item } from "~/utils/catalogue";
import type { CategoryQuery } from "~/utils/catalogue-schemas";
import { priceAndFeatured } from "./list-filters.server";
import type { FilteredQuery } from "./facets.server";
import { matchingPage } from "./facets.server";
import { hasChoice } from "~/utils/option-filters";
import { averageRating } from "~/utils/reviews";

const SpecificationsSchema = z.record(z.string(), z.string()).catch({});

/** The one place where `inStock` is derived from `stock`. */
export function toItem(row: ItemRow): Item {
  let specifications: Record<string, string> = {};
  try {
    specifications = SpecificationsSchema.parse(JSON.parse(row.specifications));
  } catch {
    specifications = {};
  }
  return {
    id: row.id,
    categoryId: row.categoryId,
    title: row.title,
    slug: row.slug,
    description: row.description,
    price: row.price,
    imgPath: row.imgPath,
    featured: row.featured === 1,
    madeToOrder: row.madeToOrder === 1,
    inStock: row.stock > 0,
    stock: row.stock,
    specifications,
    averageRating: averageRating(row.ratingTotal, row.reviewCount),
    reviewCount: row.reviewCount,
  };
}

const NO_FILTER: CategoryQuery = { sort: "default", availability: [], price: [], featured: undefined };

/** A product list's filters (availability, price ranges, featured) as SQL conditions on items: category pages and search. */
export function itemFilters(eb: ExpressionBuilder<DB, "items">, query: CategoryQuery): Expression<SqlBool>[] {
  const parts: Expression<SqlBool>[] = [];
  const availability = new Set(query.availability);
  if (availability.size === 1) parts.push(availability.has("in-stock") ? eb("stock", ">", 0) : eb("stock", "=", 0));
  return [...parts, ...priceAndFeatured(query, { price: "price", featured: "featured" })];
}

/** The filters of a category query as one SQL condition. */
function categoryConditions(categoryId: number, query: CategoryQuery) {
  return (eb: ExpressionBuilder<DB, "items">) => eb.and([eb("categoryId", "=", categoryId), ...itemFilters(eb, query)]);
}

/**
 * One page of a category's products, sorted and filtered in SQL, and how many the whole filtered
 * list has: reads `window.limit` rows at most, plus a count (docs/decisions/0013). Orders: by id
 * (default); by price then id (low to high), by price then id, both descending (high to low), so
 * pages never overlap. A window past the end answers no rows and the total. Chosen option values
 * (`query.options`) are matched on one active variant (facets.server), in the same orders.
 */
export async function listCategoryItemsPage(
  categoryId: number,
  query: FilteredQuery = NO_FILTER,
  window: RowWindow = { offset: 0, limit: PRODUCT_PAGE_SIZES.defaultSize },
  db: Db = defaultDb,
): Promise<ListPage<Item>> {
  if (hasChoice(query.options)) {
    // Chosen option values: the matching products' ids, page and count, from variant_facets alone.
    const { ids, total } = await matchingPage(db, { categoryId }, query, window);
    return { rows: (await rowsById(db, ids)).map(toItem), total };
  }
  const where = categoryConditions(categoryId, query);
  const ordered = <O>(q: SelectQueryBuilder<DB, "items", O>) => {
    if (query.sort === "price-asc") return q.orderBy("price", "asc").orderBy("id", "asc");
    if (query.sort === "price-desc") return q.orderBy("price", "desc").orderBy("id", "desc");
    return q.orderBy("id", "asc");
  };
  const [rows, count] = await Promise.all([
    window.offset === 0
      ? ordered(db.selectFrom("items").selectAll().where(where)).limit(window.limit).execute()
      : laterPage(db, ordered(db.selectFrom("items").select("id").where(where)).limit(window.limit).offset(window.offset)),
    db
      .selectFrom("items")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where(where)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toItem), total: toCount(count.n) };
}

/**
 * A page past the first: its ids from the list's index alone (the offset skips index entries, not
 * rows: PostgreSQL read every skipped product, 2,376 of them on page 100, 3.7 ms against 1.1), then
 * those products by id, in the ids' order.
 */
async function laterPage(db: Db, ids: SelectQueryBuilder<DB, "items", { id: number }>): Promise<ItemRow[]> {
  return rowsById(
    db,
    (await ids.execute()).map((r) => r.id),
  );
}

/** These products, in the ids' order (one gone in between is left out). */
async function rowsById(db: Db, ids: number[]): Promise<ItemRow[]> {
  if (ids.length === 0) return [];
  const byId = new Map((await db.selectFrom("items").selectAll().where("id", "in", ids).execute()).map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function getItemBySlug(slug: string, db: Db = defaultDb): Promise<Item | null> {
  const row = await db.selectFrom("items").selectAll().where("slug", "=", slug).executeTakeFirst();
  return row ? toItem(row) : null;
}

export async function getItemById(id: number, db: Db = defaultDb): Promise<Item | null> {
  const row = await db.selectFrom("items").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toItem(row) : null;
}

/** The first `limit` featured products by id (the home page shows four). */
export async function listFeatured(limit: number, db: Db = defaultDb): Promise<Item[]> {
  return (await listFeaturedPage({ offset: 0, limit }, db)).rows;
}

/** One page of the featured products by id, and how many there are (GET /api/furniture-items/featured). */
export async function listFeaturedPage(window: RowWindow, db: Db = defaultDb): Promise<ListPage<Item>> {
  const [rows, count] = await Promise.all([
    db.selectFrom("items").selectAll().where("featured", "=", 1).orderBy("id").limit(window.limit).offset(window.offset).execute(),
    db
      .selectFrom("items")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("featured", "=", 1)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toItem), total: toCount(count.n) };
}

export const RELATED_CATEGORY_SLUG = "living-room";

/** Related products: the living-room category's items, less the current one (docs/product.md). */
export async function listRelated(currentSlug: string, limit = 4, db: Db = defaultDb): Promise<Item[]> {
  const rows = await db
    .selectFrom("items")
    .innerJoin("categories", "categories.id", "items.categoryId")
    .selectAll("items")
    .where("categories.slug", "=", RELATED_CATEGORY_SLUG)
    .where("items.slug", "<>", currentSlug)
    .orderBy("items.id")
    .limit(limit)
    .execute();
  return rows.map(toItem);
}

/** How many products the catalogue holds (the sitemap index's page count). */
export async function countItems(db: Db = defaultDb): Promise<number> {
  const row = await db
    .selectFrom("items")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return toCount(row.n);
}

/** One page of product slugs in id order (a child sitemap; its count is countItems). */
export async function listItemSlugsPage(window: RowWindow, db: Db = defaultDb): Promise<{ slug: string; updatedAt: string }[]> {
  return db.selectFrom("items").select(["slug", "updatedAt"]).orderBy("id").limit(window.limit).offset(window.offset).execute();
}
