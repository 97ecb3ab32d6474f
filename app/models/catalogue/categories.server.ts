// The storefront's categories: the list (with the built-in defaults while the shop has none),
// one category by slug or id. `toCategory` turns a row into the Category the pages show.
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import type { CategoryRow } from "~/lib/db-schema";
import { errorMessage, log } from "~/lib/log.server";
import type { Category } from "~/utils/catalogue";
import { DEFAULT_CATEGORIES } from "~/utils/default-categories";

export function toCategory(row: CategoryRow): Category {
  return { id: row.id, title: row.title, description: row.description, slug: row.slug, imgPath: row.imgPath };
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
  return categoriesOrDefaults(() => listCategories(db));
}

/** listCategoriesOrDefaults over a given read of the list. */
export async function categoriesOrDefaults(read: () => Promise<Category[]>): Promise<Category[]> {
  try {
    const categories = await read();
    return categories.length ? categories : DEFAULT_CATEGORIES;
  } catch (error) {
    log.error(`categories could not be read; showing the defaults: ${errorMessage(error)}`);
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
