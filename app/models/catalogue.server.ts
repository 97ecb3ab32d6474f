// Categories and items: every catalogue query the pages and the API make.
import { z } from "zod";
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import type { CategoryRow, ItemRow } from "~/lib/db-schema";
import { errorMessage } from "~/lib/log.server";
import type { Category, CategoryQuery, Item } from "~/utils/catalogue";
import { PRICE_RANGES } from "~/utils/catalogue";
import { DEFAULT_CATEGORIES } from "~/utils/default-categories";

const SpecificationsSchema = z.record(z.string(), z.string()).catch({});

export function toCategory(row: CategoryRow): Category {
  return { id: row.id, title: row.title, description: row.description, slug: row.slug, imgPath: row.imgPath };
}

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
    inStock: row.stock > 0,
    stock: row.stock,
    specifications,
  };
}

export async function listCategories(db: Db = defaultDb): Promise<Category[]> {
  const rows = await db.selectFrom("categories").selectAll().orderBy("position").orderBy("id").execute();
  return rows.map(toCategory);
}

/**
 * The category list the storefront shows: the built-in defaults when the shop has none yet,
 * or when the database cannot be read (docs/product.md, Catalogue: the defaults remain).
 */
export async function listCategoriesOrDefaults(db: Db = defaultDb): Promise<Category[]> {
  try {
    const categories = await listCategories(db);
    return categories.length ? categories : DEFAULT_CATEGORIES;
  } catch (error) {
    console.error("categories could not be read; showing the defaults:", errorMessage(error));
    return DEFAULT_CATEGORIES;
  }
}

export async function getCategoryBySlug(slug: string, db: Db = defaultDb): Promise<Category | null> {
  const row = await db.selectFrom("categories").selectAll().where("slug", "=", slug).executeTakeFirst();
  return row ? toCategory(row) : null;
}

export async function getCategoryById(id: number, db: Db = defaultDb): Promise<Category | null> {
  const row = await db.selectFrom("categories").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toCategory(row) : null;
}

const NO_FILTER: CategoryQuery = { sort: "default", availability: [], price: [], featured: undefined };

export async function listItemsInCategory(categoryId: number, query: CategoryQuery = NO_FILTER, db: Db = defaultDb): Promise<Item[]> {
  let q = db.selectFrom("items").selectAll().where("categoryId", "=", categoryId);
  const availability = new Set(query.availability);
  if (availability.size === 1) {
    q = availability.has("in-stock") ? q.where("stock", ">", 0) : q.where("stock", "=", 0);
  }
  if (query.price.length) {
    q = q.where((eb) =>
      eb.or(
        query.price.map((key) => {
          const { min, max } = PRICE_RANGES[key];
          const parts = [];
          if (min !== null) parts.push(eb("price", ">=", min));
          if (max !== null) parts.push(eb("price", "<=", max));
          return eb.and(parts);
        }),
      ),
    );
  }
  if (query.featured) q = q.where("featured", "=", 1);
  if (query.sort === "price-asc") q = q.orderBy("price", "asc");
  if (query.sort === "price-desc") q = q.orderBy("price", "desc");
  const rows = await q.orderBy("id").execute();
  return rows.map(toItem);
}

export async function getItemBySlug(slug: string, db: Db = defaultDb): Promise<Item | null> {
  const row = await db.selectFrom("items").selectAll().where("slug", "=", slug).executeTakeFirst();
  return row ? toItem(row) : null;
}

export async function getItemById(id: number, db: Db = defaultDb): Promise<Item | null> {
  const row = await db.selectFrom("items").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toItem(row) : null;
}

export async function listFeatured(limit?: number, db: Db = defaultDb): Promise<Item[]> {
  let q = db.selectFrom("items").selectAll().where("featured", "=", 1).orderBy("id");
  if (limit) q = q.limit(limit);
  return (await q.execute()).map(toItem);
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

/** Every product's slug and last change, for the sitemap. */
export async function listItemSlugs(db: Db = defaultDb): Promise<{ slug: string; updatedAt: string }[]> {
  return db.selectFrom("items").select(["slug", "updatedAt"]).orderBy("id").execute();
}
