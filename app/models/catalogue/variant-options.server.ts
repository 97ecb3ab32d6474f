// A product's options and their values, changed by staff on the variants page: each change one
// transaction with its audit row, the product locked first (lockItems, as every variant writer).
// - A new option gives every variant the option's first value: a product sold as one piece then
//   has its default variant as its first combination, so carts, holds and orders of it stay valid.
// - A value is deleted with its variants only when no cart, payment hold or open order uses them
//   (variant-usage.server); otherwise the page says why and the variants can be deactivated.
// - An option is removed only when it has one value left (so no two variants become the same
//   combination); the last option removed leaves the product its one variant as its default.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, isUniqueViolation } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { slugify } from "~/utils/slug";
import { VARIANT_LIMITS } from "~/utils/variant-schemas";
import { recordAudit } from "../audit.server";
import type { Actor } from "../staff/staff.server";
import { lockedProduct, rekeyVariants } from "./variant-editor.server";
import { refuseIfUsed } from "./variant-usage.server";

export const OPTION_GONE = "That option is no longer there. Reload the page.";
export const VALUE_GONE = "That value is no longer there. Reload the page.";
const field = (name: string, message: string, status: 400 | 409 = 400) =>
  new AppError(status, message, { fieldErrors: { [name]: message } });

async function optionOf(trx: Db, itemId: number, optionId: number) {
  const option = await trx
    .selectFrom("productOptions")
    .select(["id", "name", "position"])
    .where("id", "=", optionId)
    .where("itemId", "=", itemId)
    .executeTakeFirst();
  if (!option) throw new AppError(404, OPTION_GONE);
  return option;
}

async function valueOf(trx: Db, itemId: number, valueId: number) {
  const value = await trx
    .selectFrom("productOptionValues as v")
    .innerJoin("productOptions as o", "o.id", "v.optionId")
    .select(["v.id", "v.value", "v.slug", "v.position", "v.optionId", "o.name as optionName"])
    .where("v.id", "=", valueId)
    .where("v.itemId", "=", itemId)
    .executeTakeFirst();
  if (!value) throw new AppError(404, VALUE_GONE);
  return value;
}

const valuesOf = (trx: Db, optionId: number) =>
  trx
    .selectFrom("productOptionValues")
    .select(["id", "value", "slug", "position"])
    .where("optionId", "=", optionId)
    .orderBy("position")
    .orderBy("id")
    .execute();

const variantsWith = async (trx: Db, valueId: number) =>
  (await trx.selectFrom("variantOptionValues").select("variantId").where("optionValueId", "=", valueId).execute()).map((r) => r.variantId);

type Audit = { summary: string; details?: Record<string, readonly [unknown, unknown]> };

/** One change of a product's options: locked, written, audited, in one transaction. */
function change<T extends Audit>(itemId: number, actor: Actor, db: Db, write: (trx: Db, title: string) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const item = await lockedProduct(trx, itemId);
    const done = await write(trx, item.title);
    await recordAudit(trx, { action: "update", entity: "product", entityId: itemId, summary: done.summary, details: done.details, actor });
    return done;
  });
}

/** Add an option with its values; every variant takes its first value. */
export function addOption(itemId: number, input: { name: string; values: string[] }, actor: Actor, db: Db = defaultDb) {
  return change(itemId, actor, db, async (trx, title) => {
    const options = await trx.selectFrom("productOptions").select(["slug", "position"]).where("itemId", "=", itemId).execute();
    if (options.length >= VARIANT_LIMITS.options) throw field("name", "A product has at most three options");
    const slug = slugify(input.name);
    if (options.some((o) => o.slug === slug)) throw field("name", `This product has an option called ${input.name} already`);
    const option = await trx
      .insertInto("productOptions")
      .values({ itemId, name: input.name, slug, position: options.length, createdAt: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const ids: number[] = [];
    for (const [position, value] of input.values.entries()) {
      const row = await trx
        .insertInto("productOptionValues")
        .values({ optionId: option.id, itemId, value, slug: slugify(value), position })
        .returning("id")
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    const variants = await trx.selectFrom("productVariants").select("id").where("itemId", "=", itemId).execute();
    if (variants.length > 0) {
      await trx
        .insertInto("variantOptionValues")
        .values(variants.map((v) => ({ variantId: v.id, optionValueId: ids[0]! })))
        .execute();
      await rekeyVariants(trx, itemId);
    }
    return {
      summary:
        `Added option ${input.name} (${input.values.join(", ")}) to product "${title}"; ` +
        `its ${variants.length === 1 ? "variant is" : `${variants.length} variants are`} ${input.values[0]}`,
    };
  });
}

/** Remove an option that has one value left; its variants keep their other values. */
export function removeOption(itemId: number, optionId: number, actor: Actor, db: Db = defaultDb) {
  return change(itemId, actor, db, async (trx, title) => {
    const option = await optionOf(trx, itemId, optionId);
    const values = await valuesOf(trx, optionId);
    if (values.length > 1) {
      throw new AppError(
        400,
        `${option.name} has ${values.length} values: remove all but one first ` +
          "(each removal is checked against carts and orders), then the option",
      );
    }
    await trx.deleteFrom("productOptions").where("id", "=", optionId).execute();
    const later = await trx
      .selectFrom("productOptions")
      .select(["id", "position"])
      .where("itemId", "=", itemId)
      .where("position", ">", option.position)
      .orderBy("position")
      .execute();
    for (const o of later)
      await trx
        .updateTable("productOptions")
        .set({ position: o.position - 1 })
        .where("id", "=", o.id)
        .execute();
    await rekeyVariants(trx, itemId);
    const left = await trx.selectFrom("productOptions").select("id").where("itemId", "=", itemId).executeTakeFirst();
    return {
      summary:
        `Removed option ${option.name} (${values.map((v) => v.value).join(", ")}) from product "${title}"` +
        (left ? "" : "; it is sold as one piece again"),
    };
  });
}

/** A value added at the end of its option (its combinations are made by 'Generate'). */
export function addValue(itemId: number, optionId: number, value: string, actor: Actor, db: Db = defaultDb) {
  return change(itemId, actor, db, async (trx, title) => {
    const option = await optionOf(trx, itemId, optionId);
    const values = await valuesOf(trx, optionId);
    if (values.length >= VARIANT_LIMITS.values) throw field("value", `An option has at most ${VARIANT_LIMITS.values} values`);
    if (values.some((v) => v.slug === slugify(value))) throw field("value", `${option.name} has ${value} already`);
    const position = values.reduce((max, v) => Math.max(max, v.position), -1) + 1;
    await trx
      .insertInto("productOptionValues")
      .values({ optionId, itemId, value, slug: slugify(value), position })
      .execute();
    return { summary: `Added ${value} to ${option.name} of product "${title}"` };
  });
}

/** A value renamed: its variants' labels follow (order lines keep the label they were ordered with). */
export function renameValue(itemId: number, valueId: number, value: string, actor: Actor, db: Db = defaultDb) {
  return change(itemId, actor, db, async (trx, title) => {
    const before = await valueOf(trx, itemId, valueId);
    const same = (await valuesOf(trx, before.optionId)).find((v) => v.id !== valueId && v.slug === slugify(value));
    if (same) throw field("value", `${before.optionName} has ${same.value} already`, 409);
    try {
      await trx
        .updateTable("productOptionValues")
        .set({ value, slug: slugify(value) })
        .where("id", "=", valueId)
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw field("value", `${before.optionName} has ${value} already`, 409);
      throw error;
    }
    return {
      summary: `Renamed ${before.optionName} ${before.value} to ${value} on product "${title}"`,
      details: { value: [before.value, value] },
    };
  });
}

/** A value moved one place up or down in its option (the product page's order of choices). */
export function moveValue(itemId: number, valueId: number, direction: "up" | "down", actor: Actor, db: Db = defaultDb) {
  return change(itemId, actor, db, async (trx, title) => {
    const value = await valueOf(trx, itemId, valueId);
    const values = await valuesOf(trx, value.optionId);
    const at = values.findIndex((v) => v.id === valueId);
    const other = values[direction === "up" ? at - 1 : at + 1];
    if (!other)
      return {
        summary: `Left ${value.optionName} ${value.value} where it is on "${title}": it is ${direction === "up" ? "first" : "last"}`,
      };
    // Positions are not unique, so two updates swap them; written as their order (a gap-free 0..n-1).
    const order = values.map((v) => v.id);
    [order[at], order[values.indexOf(other)]] = [other.id, valueId];
    for (const [position, id] of order.entries()) {
      await trx.updateTable("productOptionValues").set({ position }).where("id", "=", id).execute();
    }
    return { summary: `Moved ${value.optionName} ${value.value} ${direction} on product "${title}"` };
  });
}

/** A value deleted with its variants, when nothing uses them and the product keeps a variant. */
export function removeValue(itemId: number, valueId: number, actor: Actor, db: Db = defaultDb) {
  return change(itemId, actor, db, async (trx, title) => {
    const value = await valueOf(trx, itemId, valueId);
    const values = await valuesOf(trx, value.optionId);
    if (values.length === 1) throw new AppError(400, `${value.value} is the only value of ${value.optionName}: remove the option instead`);
    const variantIds = await variantsWith(trx, valueId);
    await refuseIfUsed(trx, variantIds, value.value, "deactivate its variants instead");
    const all = await trx.selectFrom("productVariants").select("id").where("itemId", "=", itemId).execute();
    if (all.length > 0 && all.length === variantIds.length) {
      throw new AppError(400, `Every variant of this product is ${value.value}: a product keeps at least one variant`);
    }
    if (variantIds.length > 0) await trx.deleteFrom("productVariants").where("id", "in", variantIds).execute();
    await trx.deleteFrom("productOptionValues").where("id", "=", valueId).execute();
    return {
      summary:
        `Removed ${value.optionName} ${value.value} from product "${title}" ` +
        `with ${variantIds.length} variant${variantIds.length === 1 ? "" : "s"}`,
    };
  });
}
