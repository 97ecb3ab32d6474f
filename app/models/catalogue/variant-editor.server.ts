// What the staff's variants page shows of a product: its options with their values in order, and
// every variant (on sale or not) with its SKU, price, stock, weight, dimensions and version, and
// how many combinations of the values are not made yet. Shared by the page's writes
// (variant-options.server, variant-matrix.server): the product is locked before it is changed.
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { lockItems, variantLabelOf } from "./variants.server";

export const PRODUCT_NOT_FOUND = "Product Not Found";
export const VARIANT_GONE = "That variant is no longer there. Reload the page.";

export interface EditorVariant {
  id: number;
  sku: string;
  price: number;
  stock: number;
  active: boolean;
  weightGrams: number | null;
  lengthCm: number | null;
  widthCm: number | null;
  heightCm: number | null;
  version: number;
  /** its values' ids in option order ([] for the default variant of a product without options) */
  valueIds: number[];
  /** 'Velvet, 3-seater'; '' for the default */
  label: string;
}

export interface EditorOption {
  id: number;
  name: string;
  values: { id: number; value: string; slug: string }[];
}

export interface VariantEditor {
  product: { id: number; title: string; slug: string };
  options: EditorOption[];
  variants: EditorVariant[];
  /** combinations of the values that have no variant yet ('Generate' makes them) */
  missing: number;
}

/** Every combination of the options' values, as lists of value ids in option order. */
export function combinations(options: { values: { id: number }[] }[]): number[][] {
  return options.reduce<number[][]>((acc, o) => acc.flatMap((combo) => o.values.map((v) => [...combo, v.id])), [[]]);
}

/** The page's data: null when there is no such product. */
export async function variantEditor(itemId: number, db: Db = defaultDb): Promise<VariantEditor | null> {
  const product = await db.selectFrom("items").select(["id", "title", "slug"]).where("id", "=", itemId).executeTakeFirst();
  if (!product) return null;
  const [options, values, variants, links] = await Promise.all([
    db.selectFrom("productOptions").select(["id", "name"]).where("itemId", "=", itemId).orderBy("position").execute(),
    db
      .selectFrom("productOptionValues")
      .select(["id", "optionId", "value", "slug"])
      .where("itemId", "=", itemId)
      .orderBy("optionId")
      .orderBy("position")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("productVariants")
      .select(["id", "sku", "price", "stock", "active", "weightGrams", "lengthCm", "widthCm", "heightCm", "version", "optionKey"])
      .where("itemId", "=", itemId)
      .orderBy("position")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("variantOptionValues")
      .innerJoin("productVariants", "productVariants.id", "variantOptionValues.variantId")
      .select(["variantOptionValues.variantId", "variantOptionValues.optionValueId"])
      .where("productVariants.itemId", "=", itemId)
      .execute(),
  ]);
  const editorOptions: EditorOption[] = options.map((o) => ({
    id: o.id,
    name: o.name,
    values: values.filter((v) => v.optionId === o.id).map((v) => ({ id: v.id, value: v.value, slug: v.slug })),
  }));
  const position = new Map(editorOptions.flatMap((o, i) => o.values.map((v) => [v.id, i] as const)));
  const valueName = new Map(values.map((v) => [v.id, v.value]));
  const linked = new Map<number, number[]>();
  for (const l of links) linked.set(l.variantId, [...(linked.get(l.variantId) ?? []), l.optionValueId]);
  const rows: EditorVariant[] = variants.map(({ optionKey: _key, active, ...v }) => {
    const valueIds = (linked.get(v.id) ?? []).sort((a, b) => (position.get(a) ?? 0) - (position.get(b) ?? 0));
    return { ...v, active: active === 1, valueIds, label: variantLabelOf(valueIds.map((id) => valueName.get(id) ?? "")) };
  });
  const made = new Set(rows.map((v) => v.valueIds.join(".")));
  const missing = editorOptions.length === 0 ? 0 : combinations(editorOptions).filter((c) => !made.has(c.join("."))).length;
  return { product, options: editorOptions, variants: rows, missing };
}

/** Inside a write: the product locked (PostgreSQL; lockItems), 404 when it is gone. */
export async function lockedProduct(trx: Db, itemId: number): Promise<{ id: number; title: string }> {
  await lockItems(trx, [itemId]);
  const item = await trx.selectFrom("items").select(["id", "title"]).where("id", "=", itemId).executeTakeFirst();
  if (!item) throw new AppError(404, PRODUCT_NOT_FOUND);
  return item;
}

/**
 * Write each variant's option_key again from its values in option order (after an option was
 * added or removed). Each new key is distinct (the callers make sure), so the unique
 * (item_id, option_key) holds after every single update.
 */
export async function rekeyVariants(trx: Db, itemId: number): Promise<void> {
  const rows = await trx
    .selectFrom("productVariants as pv")
    .leftJoin("variantOptionValues as vov", "vov.variantId", "pv.id")
    .leftJoin("productOptionValues as v", "v.id", "vov.optionValueId")
    .leftJoin("productOptions as o", "o.id", "v.optionId")
    .select(["pv.id", "pv.optionKey", "vov.optionValueId"])
    .where("pv.itemId", "=", itemId)
    .orderBy("pv.id")
    .orderBy("o.position")
    .execute();
  const keys = new Map<number, { now: string; ids: number[] }>();
  for (const r of rows) {
    const entry = keys.get(r.id) ?? { now: r.optionKey, ids: [] };
    if (r.optionValueId !== null) entry.ids.push(r.optionValueId);
    keys.set(r.id, entry);
  }
  for (const [id, { now, ids }] of keys) {
    const key = ids.join(".");
    if (key !== now) await trx.updateTable("productVariants").set({ optionKey: key }).where("id", "=", id).execute();
  }
}
