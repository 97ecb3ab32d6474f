// A product's options and variants (migration 0032, ADR 0034): what a customer chooses between,
// what a cart line, a payment hold and an order line are of, and the one place stock moves.
// A product without options has one variant, its default; items.stock and items.price follow the
// active variants by the database's triggers, so every stock change here is one UPDATE of a
// variant. Writers lock the product's row before its variants' (lockItems): an order taking a
// sofa and staff adjusting its stock queue in the same order and never deadlock (PostgreSQL).
import type { Db } from "~/lib/db.server";
import { isPostgres } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";

export interface OptionValue {
  id: number;
  value: string;
  slug: string;
}

export interface ProductOption {
  id: number;
  name: string;
  slug: string;
  values: OptionValue[];
}

export interface Variant {
  id: number;
  itemId: number;
  sku: string;
  price: number;
  stock: number;
  active: boolean;
  /** its value of each option, by option name: { Finish: "Walnut", Size: "3-seater" } ({} for the default) */
  options: Record<string, string>;
  /** its values' ids, in option order */
  valueIds: number[];
  /** 'Walnut, 3-seater'; '' for a product without options */
  label: string;
}

/** A product's options with their values, and its variants, in position order. */
export interface ProductVariants {
  options: ProductOption[];
  variants: Variant[];
}

const NOT_FOUND = "That product was not found";
export const VARIANT_NOT_FOUND = "That choice of the product was not found";
export const VARIANT_INACTIVE = "That choice of the product is no longer sold";

/** The label of a variant from its values in option order: 'Walnut, 3-seater'. */
export function variantLabelOf(values: string[]): string {
  return values.join(", ");
}

/** The options and variants of these products, by product id (a product unknown here is absent). */
export async function variantsOfItems(db: Db, itemIds: number[]): Promise<Map<number, ProductVariants>> {
  const result = new Map<number, ProductVariants>();
  if (itemIds.length === 0) return result;
  const [options, values, variants, links] = await Promise.all([
    db
      .selectFrom("productOptions")
      .select(["id", "itemId", "name", "slug"])
      .where("itemId", "in", itemIds)
      .orderBy("itemId")
      .orderBy("position")
      .execute(),
    db
      .selectFrom("productOptionValues")
      .select(["id", "optionId", "value", "slug"])
      .where("itemId", "in", itemIds)
      .orderBy("optionId")
      .orderBy("position")
      .execute(),
    db
      .selectFrom("productVariants")
      .select(["id", "itemId", "sku", "price", "stock", "active"])
      .where("itemId", "in", itemIds)
      .orderBy("itemId")
      .orderBy("position")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("variantOptionValues")
      .innerJoin("productVariants", "productVariants.id", "variantOptionValues.variantId")
      .select(["variantOptionValues.variantId", "variantOptionValues.optionValueId"])
      .where("productVariants.itemId", "in", itemIds)
      .execute(),
  ]);
  const valuesByOption = new Map<number, OptionValue[]>();
  const valueById = new Map<number, { optionId: number; value: string }>();
  for (const v of values) {
    valuesByOption.set(v.optionId, [...(valuesByOption.get(v.optionId) ?? []), { id: v.id, value: v.value, slug: v.slug }]);
    valueById.set(v.id, { optionId: v.optionId, value: v.value });
  }
  const valuesOfVariant = new Map<number, number[]>();
  for (const l of links) valuesOfVariant.set(l.variantId, [...(valuesOfVariant.get(l.variantId) ?? []), l.optionValueId]);
  for (const id of itemIds) result.set(id, { options: [], variants: [] });
  for (const o of options) {
    result.get(o.itemId)?.options.push({ id: o.id, name: o.name, slug: o.slug, values: valuesByOption.get(o.id) ?? [] });
  }
  for (const v of variants) {
    const product = result.get(v.itemId)!;
    const mine = new Set(valuesOfVariant.get(v.id) ?? []);
    const chosen = product.options.flatMap((o) => o.values.filter((value) => mine.has(value.id)).map((value) => ({ option: o, value })));
    product.variants.push({
      id: v.id,
      itemId: v.itemId,
      sku: v.sku,
      price: v.price,
      stock: v.stock,
      active: v.active === 1,
      options: Object.fromEntries(chosen.map((c) => [c.option.name, c.value.value])),
      valueIds: chosen.map((c) => c.value.id),
      label: variantLabelOf(chosen.map((c) => c.value.value)),
    });
  }
  for (const [id, product] of result) if (product.variants.length === 0) result.delete(id);
  return result;
}

/** One product's options and variants, or null when it is not there. */
export async function variantsOf(db: Db, itemId: number): Promise<ProductVariants | null> {
  return (await variantsOfItems(db, [itemId])).get(itemId) ?? null;
}

/** The labels of these variants ('Walnut, 3-seater'; '' for a default), by variant id. */
export async function variantLabels(db: Db, variantIds: number[]): Promise<Map<number, string>> {
  const labels = new Map<number, string>(variantIds.map((id) => [id, ""]));
  if (variantIds.length === 0) return labels;
  const rows = await db
    .selectFrom("variantOptionValues")
    .innerJoin("productOptionValues", "productOptionValues.id", "variantOptionValues.optionValueId")
    .innerJoin("productOptions", "productOptions.id", "productOptionValues.optionId")
    .select(["variantOptionValues.variantId", "productOptionValues.value"])
    .where("variantOptionValues.variantId", "in", variantIds)
    .orderBy("variantOptionValues.variantId")
    .orderBy("productOptions.position")
    .execute();
  const values = new Map<number, string[]>();
  for (const r of rows) values.set(r.variantId, [...(values.get(r.variantId) ?? []), r.value]);
  for (const [id, list] of values) labels.set(id, variantLabelOf(list));
  return labels;
}

/** "Finish and Size": the options a customer must choose, in words. */
export function optionNames(options: { name: string }[]): string {
  const names = options.map((o) => o.name);
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/**
 * The variant a cart add means: the one named (it must be this product's, 404, and still sold,
 * 400), or, when none is named, the product's only variant. A product sold in several variants
 * needs one named: a 400 that names its options.
 */
export async function chosenVariant(db: Db, itemId: number, variantId: number | undefined): Promise<Variant> {
  const product = await variantsOf(db, itemId);
  if (!product) throw new AppError(404, NOT_FOUND);
  if (variantId === undefined) {
    if (product.variants.length === 1) return product.variants[0]!;
    const message = `Please choose the ${optionNames(product.options)} of this product`;
    throw new AppError(400, message, { code: "VARIANT_REQUIRED", fieldErrors: { variantId: message } });
  }
  const variant = product.variants.find((v) => v.id === variantId);
  if (!variant) throw new AppError(404, VARIANT_NOT_FOUND, { code: "VARIANT_NOT_FOUND" });
  if (!variant.active) throw new AppError(400, VARIANT_INACTIVE, { code: "VARIANT_INACTIVE" });
  return variant;
}

/**
 * Inside a transaction on PostgreSQL: lock these products' rows (FOR UPDATE, in id order) before
 * their variants are written, so that every writer of a variant's stock queues on its product in
 * the same order. SQLite runs one write transaction at a time already.
 */
export async function lockItems(trx: Db, itemIds: number[]): Promise<void> {
  if (!isPostgres(trx) || itemIds.length === 0) return;
  await trx
    .selectFrom("items")
    .select("id")
    .where("id", "in", [...new Set(itemIds)])
    .orderBy("id")
    .forUpdate()
    .execute();
}

/**
 * Take `quantity` units of a variant, only while it has them (the no-oversell rule, in SQL);
 * false when it has not. The caller locked its product (lockItems) and says what to do.
 */
export async function takeUnits(trx: Db, variantId: number, quantity: number, now: string): Promise<boolean> {
  const taken = await trx
    .updateTable("productVariants")
    .set((eb) => ({ stock: eb("stock", "-", quantity), version: eb("version", "+", 1), updatedAt: now }))
    .where("id", "=", variantId)
    .where("stock", ">=", quantity)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

/**
 * Put units back (a cancellation, a return): to the variant ordered while it is there, else to the
 * product's default variant; nothing when the product is gone too. Answers whether they went back.
 */
export async function returnUnits(
  trx: Db,
  line: { variantId: number | null; itemId: number | null; quantity: number },
  now: string,
): Promise<boolean> {
  if (line.itemId === null && line.variantId === null) return false;
  let variantId = line.variantId;
  if (variantId !== null) {
    const there = await trx.selectFrom("productVariants").select("id").where("id", "=", variantId).executeTakeFirst();
    if (!there) variantId = null;
  }
  if (variantId === null && line.itemId !== null) {
    const fallback = await trx
      .selectFrom("productVariants")
      .select("id")
      .where("itemId", "=", line.itemId)
      .orderBy("position")
      .orderBy("id")
      .executeTakeFirst();
    variantId = fallback?.id ?? null;
  }
  if (variantId === null) return false;
  await trx
    .updateTable("productVariants")
    .set((eb) => ({ stock: eb("stock", "+", line.quantity), version: eb("version", "+", 1), updatedAt: now }))
    .where("id", "=", variantId)
    .execute();
  return true;
}
