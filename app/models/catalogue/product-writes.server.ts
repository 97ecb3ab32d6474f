// A product's row written inside the caller's transaction, by the staff's form and by the CSV
// import alike: a new product (insertProduct), an edit checked against the version it was made
// from with its stock change (saveProduct), each with its audit row.
import type { Db } from "~/lib/db.server";
import { nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { holdUpload } from "~/lib/uploads.server";
import type { ProductDetails, ProductEdit, ProductInput, StockChange } from "~/utils/admin-schemas";
import { ADMIN_LIMITS } from "~/utils/admin-schemas";
import type { Item } from "~/utils/catalogue";
import { diffDetails, recordAudit } from "../audit.server";
import type { Actor } from "../staff/staff.server";
import type { AdminItem } from "./admin-lists.server";
import { toAdminItem } from "./admin-lists.server";
import { uniqueSlug } from "./admin-writes.server";

const CHOOSE_CATEGORY = "Please choose a category";
/** The product's category is not there (or was deleted while the write ran): a 400 beside the form's field. */
export const categoryGone = () => new AppError(400, CHOOSE_CATEGORY, { fieldErrors: { categoryId: CHOOSE_CATEGORY } });

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

const PER_VARIANT = "This product is sold in several variants: its prices and stock are set for each variant";

/** The variant a product's own price and stock are: its only one (a product with options has them per variant). */
async function onlyVariant(trx: Db, itemId: number): Promise<number> {
  const variants = await trx.selectFrom("productVariants").select("id").where("itemId", "=", itemId).limit(2).execute();
  if (variants.length !== 1) throw new AppError(400, PER_VARIANT, { fieldErrors: { price: PER_VARIANT } });
  return variants[0]!.id;
}

/** The columns a product edit's audit row records before and after (the description and specifications only by name, in the summary). */
const PRODUCT_AUDITED = ["title", "categoryId", "price", "stock", "featured", "madeToOrder", "imgPath"] as const;

/** Inside the caller's transaction (the form, the CSV import): a new product with a fresh slug, and its audit row. */
export async function insertProduct(trx: Db, input: ProductInput, actor: Actor, slug?: string): Promise<AdminItem> {
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
    actor,
    details: { price: [null, row.price], stock: [null, row.stock] },
  });
  return toAdminItem(row);
}

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

const stockRefused = (message: string) => new AppError(400, message, { fieldErrors: { stockDelta: message } });

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
 * Inside the caller's transaction (the form, the CSV import): the product's new fields and
 * stock, and its audit row. With a version, the write happens only while the row is still that
 * version (else StaleProductError); a stock figure is never written without one, and an
 * adjustment is applied in SQL (`stock = stock + n`). Every write bumps the version; an edit
 * that changes nothing writes nothing but its audit row.
 */
export async function saveProduct(trx: Db, id: number, edit: ProductEdit, actor: Actor): Promise<AdminItem> {
  const before = await trx.selectFrom("items").selectAll().where("id", "=", id).executeTakeFirst();
  if (!before) throw new AppError(404, "Product Not Found");
  if (edit.version !== null && edit.version !== before.version) throw new StaleProductError(before.stock, edit.stockSeen);
  if (edit.stock !== null && "to" in edit.stock && edit.version === null) {
    throw new AppError(400, "A stock figure is written only with the version of the product it was read from");
  }
  await requireCategory(trx, edit.categoryId);
  await holdUpload(trx, edit.imgPath);
  const stock = nextStock(before.stock, edit.stock);
  const { price, ...values } = detailsRow(edit);
  const fields = [
    ...(Object.keys(values) as (keyof typeof values)[]).filter((k) => values[k] !== before[k]),
    ...(price !== before.price ? (["price"] as const) : []),
  ];
  const stockChanged = stock !== undefined && stock !== before.stock;
  const by = edit.stock !== null && "by" in edit.stock ? edit.stock.by : null;
  // The version the write is conditional on: the editor's, or (a stock change) the one just read.
  const guard = edit.version ?? (stockChanged ? before.version : null);
  const figuresChange = price !== before.price || stockChanged;
  let row = before;
  if (fields.length > 0 || stockChanged) {
    let update = trx
      .updateTable("items")
      // A price or stock change bumps the version through the variant's write (its trigger), once.
      .set((eb) => ({ ...values, ...(figuresChange ? {} : { version: eb("version", "+", 1) }), updatedAt: nowIso() }))
      .where("id", "=", id);
    if (guard !== null) update = update.where("version", "=", guard);
    const written = await update.returningAll().executeTakeFirst();
    if (!written) {
      // An order or another edit wrote to the row between the read above and this write.
      const now = await trx.selectFrom("items").select("stock").where("id", "=", id).executeTakeFirst();
      if (!now) throw new AppError(404, "Product Not Found");
      throw new StaleProductError(now.stock, edit.stockSeen);
    }
    // The price and stock are the variant's (the product's figures follow it, migration 0032).
    if (figuresChange) {
      await trx
        .updateTable("productVariants")
        .set((eb) => ({
          price,
          ...(!stockChanged ? {} : by !== null ? { stock: eb("stock", "+", by) } : { stock }),
          version: eb("version", "+", 1),
          updatedAt: nowIso(),
        }))
        .where("id", "=", await onlyVariant(trx, id))
        .execute();
    }
    row = await trx.selectFrom("items").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  }
  const notes = [fields.length ? `${fields.join(", ")} changed` : null, stockNote(before.stock, row.stock, edit.stock)].filter(Boolean);
  await recordAudit(trx, {
    action: "update",
    entity: "product",
    entityId: id,
    summary: `Edited product "${row.title}": ${notes.length ? notes.join("; ") : "nothing changed"}`,
    actor,
    details: diffDetails(before, row, PRODUCT_AUDITED),
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
