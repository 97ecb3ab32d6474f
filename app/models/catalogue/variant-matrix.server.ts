// A product's variants changed by staff on the variants page, each one transaction with its audit
// row, the product locked first (lockItems, as every writer of a variant's stock): the missing
// combinations generated, one variant's details (checked against the version the page was opened
// at), its stock adjusted relatively (stock = stock + n, never below 0, versioned too), one price
// for every variant, a variant deleted when nothing uses it. items.stock and items.price follow
// by the database's triggers.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { ADMIN_LIMITS } from "~/utils/admin-schemas";
import type { VariantDetails } from "~/utils/variant-edit-schemas";
import { SHOP_SKU, SHOP_SKU_MESSAGE, VARIANT_LIMITS } from "~/utils/variant-schemas";
import type { AuditDetails } from "../audit.server";
import { diffDetails, recordAudit } from "../audit.server";
import type { Actor } from "../staff/staff.server";
import { combinations, lockedProduct, VARIANT_GONE, variantEditor } from "./variant-editor.server";
import { refuseIfUsed } from "./variant-usage.server";
import { SKU_TAKEN } from "./variant-writes.server";

type Written = { summary: string; details?: AuditDetails };

function change<T extends Written>(itemId: number, actor: Actor, db: Db, write: (trx: Db, title: string) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const item = await lockedProduct(trx, itemId);
    const done = await write(trx, item.title);
    await recordAudit(trx, { action: "update", entity: "product", entityId: itemId, summary: done.summary, details: done.details, actor });
    return done;
  });
}

async function variantOf(trx: Db, itemId: number, variantId: number) {
  const row = await trx
    .selectFrom("productVariants")
    .selectAll()
    .where("id", "=", variantId)
    .where("itemId", "=", itemId)
    .executeTakeFirst();
  if (!row) throw new AppError(404, VARIANT_GONE);
  return row;
}

/** The variant changed since the page was opened (a sale, a return, another staff member): nothing was written. */
export function staleVariant(sku: string, stockSeen: number | undefined, stockNow: number): AppError {
  const what =
    stockSeen !== undefined && stockSeen !== stockNow
      ? `its stock went from ${stockSeen} to ${stockNow}: units were sold, returned or adjusted`
      : "someone else saved a change to it";
  return new AppError(409, `${sku} changed since you opened this page (${what}). Reload and try again.`);
}

/** A SKU for a new variant: the product's prefix and its values ('P12-VELVET-3-SEATER'), unique among all variants. */
async function freeSku(trx: Db, itemId: number, slugs: string[], taken: Set<string>): Promise<string> {
  const base = `P${itemId}-${slugs.join("-")}`
    .toUpperCase()
    .slice(0, VARIANT_LIMITS.sku - 4)
    .replace(/-+$/, "");
  for (let n = 1; ; n++) {
    const sku = n === 1 ? base : `${base}-${n}`;
    if (taken.has(sku)) continue;
    const used = await trx.selectFrom("productVariants").select("id").where("sku", "=", sku).executeTakeFirst();
    if (!used) return sku;
    taken.add(sku);
  }
}

/** Make every combination of the values that has no variant, each at `price` with `stock` units. */
export function generateVariants(itemId: number, start: { price: number; stock: number }, actor: Actor, db: Db = defaultDb) {
  return change(itemId, actor, db, async (trx, title) => {
    const editor = (await variantEditor(itemId, trx))!;
    if (editor.options.length === 0) throw new AppError(400, "Add an option first: a product without options is sold as one piece");
    const made = new Set(editor.variants.map((v) => v.valueIds.join(".")));
    const missing = combinations(editor.options).filter((c) => !made.has(c.join(".")));
    if (missing.length === 0) throw new AppError(400, "Every combination has its variant already");
    if (editor.variants.length + missing.length > VARIANT_LIMITS.variants) {
      throw new AppError(
        400,
        `A product has at most ${VARIANT_LIMITS.variants} variants: these options would make ${editor.variants.length + missing.length}`,
      );
    }
    const slugOf = new Map(editor.options.flatMap((o) => o.values.map((v) => [v.id, v.slug] as const)));
    const nameOf = new Map(editor.options.flatMap((o) => o.values.map((v) => [v.id, v.value] as const)));
    let position = editor.variants.length;
    const taken = new Set<string>();
    const now = nowIso();
    for (const combo of missing) {
      const sku = await freeSku(
        trx,
        itemId,
        combo.map((id) => slugOf.get(id)!),
        taken,
      );
      taken.add(sku);
      const row = await trx
        .insertInto("productVariants")
        .values({
          itemId,
          sku,
          optionKey: combo.join("."),
          price: start.price,
          stock: start.stock,
          active: 1,
          position: position++,
          createdAt: now,
          updatedAt: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("variantOptionValues")
        .values(combo.map((optionValueId) => ({ variantId: row.id, optionValueId })))
        .execute();
    }
    const labels = missing.map((c) => c.map((id) => nameOf.get(id)).join(", "));
    return {
      summary:
        `Made ${missing.length} variant${missing.length === 1 ? "" : "s"} of product "${title}" ` +
        `at ₹${start.price}, ${start.stock} in stock each: ${labels.join("; ")}`,
      details: { price: [null, start.price], stock: [null, start.stock] },
    };
  });
}

const DETAILS = ["sku", "price", "active", "weightGrams", "lengthCm", "widthCm", "heightCm"] as const;

/** One variant's SKU, price, active flag, weight and dimensions, while it is the version the page showed. */
export function saveVariant(itemId: number, input: VariantDetails, actor: Actor, db: Db = defaultDb) {
  return change(itemId, actor, db, async (trx, title) => {
    const before = await variantOf(trx, itemId, input.variantId);
    if (before.version !== input.version) throw staleVariant(before.sku, undefined, before.stock);
    if (SHOP_SKU.test(input.sku) && input.sku !== before.sku)
      throw new AppError(400, SHOP_SKU_MESSAGE, { fieldErrors: { sku: SHOP_SKU_MESSAGE } });
    const other = await trx
      .selectFrom("productVariants")
      .select("id")
      .where("sku", "=", input.sku)
      .where("id", "<>", before.id)
      .executeTakeFirst();
    if (other) throw new AppError(409, SKU_TAKEN, { fieldErrors: { sku: SKU_TAKEN } });
    const { variantId: _id, version, ...fields } = input;
    const values = { ...fields, active: input.active ? 1 : 0 };
    const written = await trx
      .updateTable("productVariants")
      .set((eb) => ({ ...values, version: eb("version", "+", 1), updatedAt: nowIso() }))
      .where("id", "=", before.id)
      .where("version", "=", version)
      .returningAll()
      .executeTakeFirst();
    if (!written) throw staleVariant(before.sku, undefined, before.stock);
    const details = diffDetails(before, written, DETAILS);
    const what = Object.keys(details);
    return {
      summary: `Edited variant ${written.sku} of product "${title}": ${what.length ? `${what.join(", ")} changed` : "nothing changed"}`,
      details,
    };
  });
}

const stockRefused = (message: string) => new AppError(400, message, { fieldErrors: { stockDelta: message } });

/** 'Adjust stock by' +5 or -1: stock = stock + n in SQL, never below 0, while the variant is the version the page showed. */
export function adjustVariantStock(
  itemId: number,
  input: { variantId: number; version: number; stockDelta: number; stockSeen?: number },
  actor: Actor,
  db: Db = defaultDb,
) {
  return change(itemId, actor, db, async (trx, title) => {
    const before = await variantOf(trx, itemId, input.variantId);
    if (before.version !== input.version) throw staleVariant(before.sku, input.stockSeen, before.stock);
    const next = before.stock + input.stockDelta;
    if (next < 0) throw stockRefused(`The stock cannot go below 0: ${before.sku} has only ${before.stock} in stock`);
    if (next > ADMIN_LIMITS.maxStock)
      throw stockRefused(`The stock can be at most ${ADMIN_LIMITS.maxStock}: ${before.sku} has ${before.stock}`);
    const written = await trx
      .updateTable("productVariants")
      .set((eb) => ({ stock: eb("stock", "+", input.stockDelta), version: eb("version", "+", 1), updatedAt: nowIso() }))
      .where("id", "=", before.id)
      .where("version", "=", input.version)
      .where("stock", ">=", -input.stockDelta)
      .returning(["stock"])
      .executeTakeFirst();
    if (!written) throw staleVariant(before.sku, input.stockSeen, before.stock);
    const by = `${input.stockDelta > 0 ? "+" : ""}${input.stockDelta}`;
    return {
      summary: `Adjusted the stock of variant ${before.sku} of product "${title}": ${by} (${before.stock} → ${written.stock})`,
      details: { stock: [before.stock, written.stock] },
    };
  });
}

/** The same price for every variant of the product (each one's version moves: a page showing the old price is stale). */
export function setPriceForAll(itemId: number, price: number, actor: Actor, db: Db = defaultDb) {
  return change(itemId, actor, db, async (trx, title) => {
    const before = await trx
      .selectFrom("productVariants")
      .select(["id", "sku", "price"])
      .where("itemId", "=", itemId)
      .orderBy("position")
      .orderBy("id")
      .execute();
    const changing = before.filter((v) => v.price !== price);
    if (changing.length > 0) {
      await trx
        .updateTable("productVariants")
        .set((eb) => ({ price, version: eb("version", "+", 1), updatedAt: nowIso() }))
        .where(
          "id",
          "in",
          changing.map((v) => v.id),
        )
        .execute();
    }
    return {
      summary: `Set the price of every variant of product "${title}" to ₹${price} (${changing.length} of ${before.length} changed)`,
      details: Object.fromEntries(changing.map((v) => [`price ${v.sku}`, [v.price, price] as const])),
    };
  });
}

/** Delete a variant no cart, payment hold or open order uses; the product keeps at least one. */
export function deleteVariant(itemId: number, variantId: number, actor: Actor, db: Db = defaultDb) {
  return change(itemId, actor, db, async (trx, title) => {
    const row = await variantOf(trx, itemId, variantId);
    const editor = (await variantEditor(itemId, trx))!;
    const label = editor.variants.find((v) => v.id === variantId)?.label || row.sku;
    if (editor.variants.length === 1) throw new AppError(400, `${label} is this product's only variant: a product keeps at least one`);
    await refuseIfUsed(trx, [variantId], label, "deactivate it instead");
    await trx.deleteFrom("productVariants").where("id", "=", variantId).execute();
    return {
      summary: `Deleted variant ${row.sku} (${label}) of product "${title}"`,
      details: { price: [row.price, null], stock: [row.stock, null] },
    };
  });
}
