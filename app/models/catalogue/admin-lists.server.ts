// The back-office's reads of the catalogue: the paged, searchable lists of categories and
// products, every product the list's filters match (the CSV export), one row to edit.
import type { Db } from "~/lib/db.server";
import { containsText, db as defaultDb, toCount } from "~/lib/db.server";
import type { ItemRow } from "~/lib/db-schema";
import type { AdminListQuery } from "~/utils/admin-schemas";
import type { ListPage, RowWindow } from "~/lib/paging.server";
import type { Category, Item } from "~/utils/catalogue";
import { LOW_STOCK } from "~/utils/dashboard";
import { toCategory } from "./categories.server";
import { toItem } from "./products.server";

export type AdminCategory = Category & { productCount: number };
/** A product as staff edit it: with its version, which every write to the row bumps. */
export type AdminItem = Item & { version: number };
export type AdminProduct = AdminItem & { categoryTitle: string };
/** A row of the staff's products list: with its variants counted, and those on sale low in stock (made-to-order pieces have none). */
export type AdminProductRow = AdminProduct & { variantCount: number; lowVariants: number };

export const toAdminItem = (row: ItemRow): AdminItem => ({ ...toItem(row), version: row.version });

export async function listCategoriesPage(
  query: Pick<AdminListQuery, "q">,
  window: RowWindow,
  db: Db = defaultDb,
): Promise<ListPage<AdminCategory>> {
  let base = db.selectFrom("categories");
  if (query.q)
    base = base.where((eb) => eb.or([containsText("categories.title", query.q), containsText("categories.description", query.q)]));
  const { count } = await base.select((eb) => eb.fn.countAll().as("count")).executeTakeFirstOrThrow();
  const total = toCount(count);
  const rows = await base
    .selectAll("categories")
    .select((eb) =>
      eb
        .selectFrom("items")
        .select((e) => e.fn.countAll().as("n"))
        .whereRef("items.categoryId", "=", "categories.id")
        .as("productCount"),
    )
    .orderBy("categories.position")
    .orderBy("categories.id")
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { rows: rows.map((r) => ({ ...toCategory(r), productCount: toCount(r.productCount) })), total };
}

export async function getCategoryForAdmin(id: number, db: Db = defaultDb): Promise<Category | null> {
  const row = await db.selectFrom("categories").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toCategory(row) : null;
}

export async function listProductsPage(
  query: Pick<AdminListQuery, "q" | "category">,
  window: RowWindow,
  db: Db = defaultDb,
): Promise<ListPage<AdminProductRow>> {
  let base = db.selectFrom("items").innerJoin("categories", "categories.id", "items.categoryId");
  let counted = db.selectFrom("items");
  // The staff's search is a case-insensitive substring of the title or description (part of a word,
  // a code, a slug): a LIKE '%x%' no index serves, so it filters the rows the list's order walks
  // (docs/decisions/0014); the storefront and the API search the full-text index instead.
  if (query.q) {
    const q = query.q;
    base = base.where((eb) => eb.or([containsText("items.title", q), containsText("items.description", q)]));
    counted = counted.where((eb) => eb.or([containsText("items.title", q), containsText("items.description", q)]));
  }
  if (query.category !== "all") {
    base = base.where("items.categoryId", "=", query.category);
    counted = counted.where("items.categoryId", "=", query.category);
  }
  // Counted without the join (every product has its category: a foreign key), so the count reads one index, not every row twice.
  const { count } = await counted.select((eb) => eb.fn.countAll().as("count")).executeTakeFirstOrThrow();
  const total = toCount(count);
  const rows = await base
    .selectAll("items")
    .select("categories.title as categoryTitle")
    // A page's ten products: each count reads that product's variants by their (item_id, option_key) index.
    .select((eb) => [
      eb
        .selectFrom("productVariants as pv")
        .select((e) => e.fn.countAll().as("n"))
        .whereRef("pv.itemId", "=", "items.id")
        .as("variantCount"),
      eb
        .selectFrom("productVariants as pv")
        .select((e) => e.fn.countAll().as("n"))
        .whereRef("pv.itemId", "=", "items.id")
        .where("pv.active", "=", 1)
        .where("pv.stock", "<=", LOW_STOCK)
        .where("items.madeToOrder", "=", 0)
        .as("lowVariants"),
    ])
    .orderBy("items.id", "desc")
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return {
    rows: rows.map((r) => ({
      ...toAdminItem(r),
      categoryTitle: r.categoryTitle,
      variantCount: toCount(r.variantCount),
      lowVariants: toCount(r.lowVariants),
    })),
    total,
  };
}

/** Every product the list's filters match, for the CSV export (no paging). */
export async function listProductsForExport(query: Pick<AdminListQuery, "q" | "category">, db: Db = defaultDb): Promise<AdminProduct[]> {
  let base = db.selectFrom("items").innerJoin("categories", "categories.id", "items.categoryId");
  if (query.q) base = base.where((eb) => eb.or([containsText("items.title", query.q), containsText("items.description", query.q)]));
  if (query.category !== "all") base = base.where("items.categoryId", "=", query.category);
  const rows = await base.selectAll("items").select("categories.title as categoryTitle").orderBy("items.id").execute();
  return rows.map((r) => ({ ...toAdminItem(r), categoryTitle: r.categoryTitle }));
}

export async function getProductForAdmin(id: number, db: Db = defaultDb): Promise<AdminItem | null> {
  const row = await db.selectFrom("items").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toAdminItem(row) : null;
}
