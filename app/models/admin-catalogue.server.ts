// The back-office's catalogue: paged, searchable lists and every change to categories and
// products. Each change writes its audit row, and the image a form uploaded (app/lib/uploads.server.ts:
// putUpload), in the same transaction.
import type { Db } from "~/lib/db.server";
import { containsText, db as defaultDb, isForeignKeyViolation, isUniqueViolation, nowIso, toCount } from "~/lib/db.server";
import type { ItemRow } from "~/lib/db-schema";
import { AppError } from "~/lib/errors.server";
import type { PendingUpload } from "~/lib/uploads.server";
import { holdUpload, putUpload, removeUnusedUpload } from "~/lib/uploads.server";
import type { AdminListQuery, CategoryInput, ProductDetails, ProductEdit, ProductInput, StockChange } from "~/utils/admin-schemas";
import { ADMIN_LIMITS } from "~/utils/admin-schemas";
import type { Category, Item } from "~/utils/catalogue";
import type { PageInfo } from "~/utils/pagination";
import { ADMIN_PAGE_SIZE, pageInfo } from "~/utils/pagination";
import { firstFreeSlug, slugify } from "~/utils/slug";
import { recordAudit } from "./audit.server";
import { toCategory } from "./catalogue/categories.server";
import { toItem } from "./catalogue/products.server";

export interface Paged<T> {
  rows: T[];
  info: PageInfo;
}

export type AdminCategory = Category & { productCount: number };
/** A product as staff edit it: with its version, which every write to the row bumps. */
export type AdminItem = Item & { version: number };
export type AdminProduct = AdminItem & { categoryTitle: string };

const toAdminItem = (row: ItemRow): AdminItem => ({ ...toItem(row), version: row.version });

/** A free slug for `title` in `table`, not counting the row `exceptId` (its own). */
export async function uniqueSlug(db: Db, table: "categories" | "items", title: string, exceptId?: number): Promise<string> {
  const base = slugify(title);
  let query = db
    .selectFrom(table)
    .select("slug")
    .where((eb) => eb.or([eb("slug", "=", base), eb("slug", "like", `${base}-%`)]));
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  const taken = new Set((await query.execute()).map((r) => r.slug));
  return firstFreeSlug(base, taken);
}

/** Run a write that claims a slug; a simultaneous claim of the same slug is retried with the next one. */
async function withSlugRetry<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt < 3 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

/**
 * After a change has committed: the uploaded image a row no longer shows is deleted, unless
 * another category or product, or a past order's line, still shows it (asked under the upload's
 * lock, which every write pointing a row at an upload takes too: holdUpload). A failure here is
 * logged, never the change's.
 */
async function dropUnusedUpload(db: Db, imgPath: string | undefined, now?: string): Promise<void> {
  if (!imgPath?.startsWith("/uploads/") || imgPath === now) return;
  try {
    await removeUnusedUpload(db, imgPath, async (trx) => {
      for (const table of ["items", "categories", "orderItems"] as const) {
        // Past orders keep showing the picture of what was bought.
        if (await trx.selectFrom(table).select("id").where("imgPath", "=", imgPath).executeTakeFirst()) return true;
      }
      return false;
    });
  } catch (error) {
    console.error("an unused upload could not be removed:", error instanceof Error ? error.message : error);
  }
}

/** A form's input with the image file it uploads (withImage), stored in the transaction that writes the row. */
type Uploading = { upload?: PendingUpload | null };

/** A write that stores `upload` in its transaction: when it fails, the upload's file (disk store) is deleted too. */
async function withUpload<T>(db: Db, upload: PendingUpload | null | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (upload) await dropUnusedUpload(db, upload.path);
    throw error;
  }
}

// ---- categories ----

export async function listCategoriesPage(query: Pick<AdminListQuery, "q" | "page">, db: Db = defaultDb): Promise<Paged<AdminCategory>> {
  let base = db.selectFrom("categories");
  if (query.q)
    base = base.where((eb) => eb.or([containsText("categories.title", query.q), containsText("categories.description", query.q)]));
  const { count } = await base.select((eb) => eb.fn.countAll().as("count")).executeTakeFirstOrThrow();
  const info = pageInfo(toCount(count), query.page);
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
    .limit(ADMIN_PAGE_SIZE)
    .offset(info.offset)
    .execute();
  return { rows: rows.map((r) => ({ ...toCategory(r), productCount: toCount(r.productCount) })), info };
}

export async function getCategoryForAdmin(id: number, db: Db = defaultDb): Promise<Category | null> {
  const row = await db.selectFrom("categories").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toCategory(row) : null;
}

export async function createCategory(input: CategoryInput & Uploading, db: Db = defaultDb): Promise<Category> {
  const { upload, ...fields } = input;
  return withUpload(db, upload, () => insertCategory(db, fields, upload));
}

function insertCategory(db: Db, input: CategoryInput, upload: PendingUpload | null | undefined): Promise<Category> {
  return withSlugRetry(() =>
    db.transaction().execute(async (trx) => {
      await putUpload(trx, upload);
      await holdUpload(trx, input.imgPath);
      const slug = await uniqueSlug(trx, "categories", input.title);
      // Two categories made at once may get the same position: only their tie-break order (by id) differs, so accepted.
      const last = await trx
        .selectFrom("categories")
        .select((eb) => eb.fn.max("position").as("p"))
        .executeTakeFirst();
      const now = nowIso();
      const row = await trx
        .insertInto("categories")
        .values({ ...input, slug, position: toCount(last?.p) + 1, createdAt: now, updatedAt: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        action: "create",
        entity: "category",
        entityId: row.id,
        summary: `Created category "${row.title}" (${row.slug})`,
      });
      return toCategory(row);
    }),
  );
}

/** The slug stays as it was made: links to /category/{slug} keep working after a rename. */
export async function updateCategory(id: number, { upload, ...input }: CategoryInput & Uploading, db: Db = defaultDb): Promise<Category> {
  let previous: string | undefined;
  const saved = await withUpload(db, upload, () =>
    db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom("categories").selectAll().where("id", "=", id).executeTakeFirst();
      if (!before) throw new AppError(404, "Category Not Found");
      await putUpload(trx, upload);
      await holdUpload(trx, input.imgPath);
      const row = await trx
        .updateTable("categories")
        .set({ ...input, updatedAt: nowIso() })
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        action: "update",
        entity: "category",
        entityId: id,
        summary: `Edited category "${row.title}"${changed(before, row, ["title", "description", "imgPath"])}`,
      });
      previous = before.imgPath;
      return toCategory(row);
    }),
  );
  await dropUnusedUpload(db, previous, saved.imgPath);
  return saved;
}

export const CATEGORY_IN_USE = (n: number) =>
  `This category still has ${n} product${n === 1 ? "" : "s"}. Move or delete ${n === 1 ? "it" : "them"} first, then delete the category.`;

/** A product joined the category while it was being deleted: the foreign key refused the delete. */
export const CATEGORY_GAINED_PRODUCT =
  "A product was just added to this category, so it was not deleted. Move or delete its products first, then delete the category.";

export async function deleteCategory(id: number, db: Db = defaultDb): Promise<void> {
  const imgPath = await onForeignKey(
    () => new AppError(409, CATEGORY_GAINED_PRODUCT),
    () => deleteCategoryRow(id, db),
  );
  await dropUnusedUpload(db, imgPath);
}

/** The count below is of committed products; one being saved into the category meanwhile meets the foreign key. */
function deleteCategoryRow(id: number, db: Db): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("categories").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw new AppError(404, "Category Not Found");
    const { n } = await trx
      .selectFrom("items")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("categoryId", "=", id)
      .executeTakeFirstOrThrow();
    if (toCount(n) > 0) throw new AppError(409, CATEGORY_IN_USE(toCount(n)));
    await trx.deleteFrom("categories").where("id", "=", id).execute();
    await recordAudit(trx, {
      action: "delete",
      entity: "category",
      entityId: id,
      summary: `Deleted category "${row.title}" (${row.slug})`,
    });
    return row.imgPath;
  });
}

/** Run `write`; a foreign-key refusal (a row it points at, or a row it deletes, changed meanwhile) becomes `refusal()`. */
async function onForeignKey<T>(refusal: () => AppError, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw refusal();
    throw error;
  }
}

const CHOOSE_CATEGORY = "Please choose a category";
const categoryGone = () => new AppError(400, CHOOSE_CATEGORY, { categoryId: CHOOSE_CATEGORY });

// ---- products ----

export async function listProductsPage(
  query: Pick<AdminListQuery, "q" | "page" | "category">,
  db: Db = defaultDb,
): Promise<Paged<AdminProduct>> {
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
  const info = pageInfo(toCount(count), query.page);
  const rows = await base
    .selectAll("items")
    .select("categories.title as categoryTitle")
    .orderBy("items.id", "desc")
    .limit(ADMIN_PAGE_SIZE)
    .offset(info.offset)
    .execute();
  return { rows: rows.map((r) => ({ ...toAdminItem(r), categoryTitle: r.categoryTitle })), info };
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

/** The category must exist; one deleted while the write runs meets the foreign key (the form's callers: the same 400). */
async function requireCategory(db: Db, categoryId: number) {
  const category = await db.selectFrom("categories").select(["id", "title"]).where("id", "=", categoryId).executeTakeFirst();
  if (!category) throw categoryGone();
  return category;
}

/** A product's fields as the row stores them (the stock apart). */
function detailsRow(input: ProductDetails) {
  return {
    title: input.title,
    categoryId: input.categoryId,
    price: input.price,
    featured: input.featured ? 1 : 0,
    madeToOrder: input.madeToOrder ? 1 : 0,
    description: input.description,
    imgPath: input.imgPath,
    specifications: JSON.stringify(input.specifications),
  };
}

export async function createProduct(input: ProductInput & Uploading, db: Db = defaultDb): Promise<AdminItem> {
  return withUpload(db, input.upload, () =>
    withSlugRetry(() =>
      onForeignKey(categoryGone, () =>
        db.transaction().execute(async (trx) => {
          await putUpload(trx, input.upload);
          return insertProduct(trx, input);
        }),
      ),
    ),
  );
}

/** Inside the caller's transaction (the form, the CSV import): a new product with a fresh slug, and its audit row. */
export async function insertProduct(trx: Db, input: ProductInput, slug?: string): Promise<AdminItem> {
  await requireCategory(trx, input.categoryId);
  await holdUpload(trx, input.imgPath);
  const now = nowIso();
  const values = {
    ...detailsRow(input),
    stock: input.stock,
    slug: slug ?? (await uniqueSlug(trx, "items", input.title)),
    createdAt: now,
    updatedAt: now,
  };
  const row = await trx.insertInto("items").values(values).returningAll().executeTakeFirstOrThrow();
  await recordAudit(trx, {
    action: "create",
    entity: "product",
    entityId: row.id,
    summary:
      `Created product "${row.title}" (${row.slug}) at ₹${row.price}, ${row.stock} in stock` + (row.madeToOrder ? ", made to order" : ""),
  });
  return toAdminItem(row);
}

export const EDIT_OUT_OF_DATE = "This form is out of date (it does not say which version of the product it shows). Reload and try again.";

/** The words of a refused edit: how the stock moved since the editor saw it, when it did. */
export function staleProductMessage(stockNow: number, stockSeen?: number): string {
  const what =
    stockSeen !== undefined && stockSeen !== stockNow
      ? `the stock went from ${stockSeen} to ${stockNow}: units were sold, returned or adjusted`
      : "someone else saved a change to it";
  return `This product changed since you opened it (${what}). Reload and try again.`;
}

/**
 * The product is no longer the version the edit was made from (an order, a cancellation or
 * another edit wrote to it since): nothing was written.
 */
export class StaleProductError extends AppError {
  constructor(
    public stockNow: number,
    stockSeen?: number,
  ) {
    super(409, staleProductMessage(stockNow, stockSeen));
    this.name = "StaleProductError";
  }
}

const stockRefused = (message: string) => new AppError(400, message, { stockDelta: message });

/** The stock an edit leaves, checked (never below 0, at most the maximum); undefined: not changed. */
function nextStock(stock: number, change: StockChange): number | undefined {
  if (change === null) return undefined;
  if ("to" in change) return change.to;
  const next = stock + change.by;
  if (next < 0) throw stockRefused(`The stock cannot go below 0: there are only ${stock} in stock`);
  if (next > ADMIN_LIMITS.maxStock) throw stockRefused(`The stock can be at most ${ADMIN_LIMITS.maxStock}: there are ${stock} in stock`);
  if (next === 0 && change.keepInStock) throw stockRefused("The stock would be 0: adjust it by at least +1, or untick In Stock");
  return next;
}

/** What the audit row says of the stock: "stock +5 (8 → 13)", "stock 10 → 0". */
function stockNote(before: number, after: number, change: StockChange): string | null {
  if (change === null || before === after) return null;
  if ("by" in change) return `stock ${change.by > 0 ? "+" : ""}${change.by} (${before} → ${after})`;
  return `stock ${before} → ${after}`;
}

/**
 * Saves an edit (the form; any API): the product's fields and its stock change, only if the row
 * is still the version the form was opened at (its version is required). Its slug (and so its
 * storefront address) stays as it was made.
 */
export async function updateProduct(id: number, edit: ProductEdit & Uploading, db: Db = defaultDb): Promise<AdminItem> {
  const before = await db.selectFrom("items").select("imgPath").where("id", "=", id).executeTakeFirst();
  let saved: AdminItem;
  try {
    if (edit.version === null) throw new AppError(400, EDIT_OUT_OF_DATE);
    saved = await onForeignKey(categoryGone, () =>
      db.transaction().execute(async (trx) => {
        await putUpload(trx, edit.upload);
        return saveProduct(trx, id, edit);
      }),
    );
  } catch (error) {
    // A refused edit's newly uploaded image is shown by nothing.
    if (edit.imgPath !== before?.imgPath) await dropUnusedUpload(db, edit.imgPath);
    throw error;
  }
  await dropUnusedUpload(db, before?.imgPath, saved.imgPath);
  return saved;
}

/**
 * Inside the caller's transaction (the form, the CSV import): the product's new fields and
 * stock, and its audit row. With a version, the write happens only while the row is still that
 * version (else StaleProductError); a stock figure is never written without one, and an
 * adjustment is applied in SQL (`stock = stock + n`). Every write bumps the version; an edit
 * that changes nothing writes nothing but its audit row.
 */
export async function saveProduct(trx: Db, id: number, edit: ProductEdit): Promise<AdminItem> {
  const before = await trx.selectFrom("items").selectAll().where("id", "=", id).executeTakeFirst();
  if (!before) throw new AppError(404, "Product Not Found");
  if (edit.version !== null && edit.version !== before.version) throw new StaleProductError(before.stock, edit.stockSeen);
  if (edit.stock !== null && "to" in edit.stock && edit.version === null) {
    throw new AppError(400, "A stock figure is written only with the version of the product it was read from");
  }
  await requireCategory(trx, edit.categoryId);
  await holdUpload(trx, edit.imgPath);
  const stock = nextStock(before.stock, edit.stock);
  const values = detailsRow(edit);
  const fields = (Object.keys(values) as (keyof typeof values)[]).filter((k) => values[k] !== before[k]);
  const stockChanged = stock !== undefined && stock !== before.stock;
  const by = edit.stock !== null && "by" in edit.stock ? edit.stock.by : null;
  // The version the write is conditional on: the editor's, or (a stock change) the one just read.
  const guard = edit.version ?? (stockChanged ? before.version : null);
  let row = before;
  if (fields.length > 0 || stockChanged) {
    let update = trx
      .updateTable("items")
      .set((eb) => ({
        ...values,
        ...(!stockChanged ? {} : by !== null ? { stock: eb("stock", "+", by) } : { stock }),
        version: eb("version", "+", 1),
        updatedAt: nowIso(),
      }))
      .where("id", "=", id);
    if (guard !== null) update = update.where("version", "=", guard);
    const written = await update.returningAll().executeTakeFirst();
    if (!written) {
      // An order or another edit wrote to the row between the read above and this write.
      const now = await trx.selectFrom("items").select("stock").where("id", "=", id).executeTakeFirst();
      if (!now) throw new AppError(404, "Product Not Found");
      throw new StaleProductError(now.stock, edit.stockSeen);
    }
    row = written;
  }
  const notes = [fields.length ? `${fields.join(", ")} changed` : null, stockNote(before.stock, row.stock, edit.stock)].filter(Boolean);
  await recordAudit(trx, {
    action: "update",
    entity: "product",
    entityId: id,
    summary: `Edited product "${row.title}": ${notes.length ? notes.join("; ") : "nothing changed"}`,
  });
  return toAdminItem(row);
}

/** Would these fields leave the product as it is? (A CSV row that only repeats it.) */
export function sameDetails(item: Item, details: ProductDetails): boolean {
  return (
    item.title === details.title &&
    item.categoryId === details.categoryId &&
    item.price === details.price &&
    item.imgPath === details.imgPath &&
    item.description === details.description &&
    item.featured === details.featured &&
    item.madeToOrder === details.madeToOrder &&
    JSON.stringify(item.specifications) === JSON.stringify(details.specifications)
  );
}

/** Past orders keep their own copy of title and price; carts and wishlists lose the line. */
export async function deleteProduct(id: number, db: Db = defaultDb): Promise<void> {
  const imgPath = await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("items").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw new AppError(404, "Product Not Found");
    await trx.deleteFrom("items").where("id", "=", id).execute();
    await recordAudit(trx, { action: "delete", entity: "product", entityId: id, summary: `Deleted product "${row.title}" (${row.slug})` });
    return row.imgPath;
  });
  await dropUnusedUpload(db, imgPath);
}

/** ": title, price changed" — which of `fields` differ between two versions of a row. */
export function changed<T extends object>(before: T, after: T, fields: (keyof T & string)[]): string {
  const diff = fields.filter((f) => before[f] !== after[f]);
  return diff.length ? `: ${diff.join(", ")} changed` : ": nothing changed";
}
