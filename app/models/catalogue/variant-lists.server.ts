// A product's variants as lists show them: the catalogue API's items with their options and
// variants on sale, and the cards of category, search and home pages with 'From ₹X' and the
// first option's values. One query per kind for a whole page.
import type { Db } from "~/lib/db.server";
import type { CardItem, Item } from "~/utils/catalogue";
import { cardOf } from "~/utils/catalogue";
import { variantsOfItems } from "./variants.server";

/** A variant as the catalogue API answers it (docs/api.md, Variants). */
export interface ApiVariant {
  id: number;
  sku: string;
  /** its value of each option, by option name: { Fabric: "Velvet" } ({} for a product without options) */
  options: Record<string, string>;
  price: number;
  stock: number;
}

/**
 * Products as the catalogue API answers them: each with `options` (name and values, in order) and
 * its `variants` on sale. `price` and `stock` are already the variants' lowest and summed (the
 * database keeps them). One query per kind for the whole page.
 */
export async function withVariants<T extends { id: number }>(
  db: Db,
  items: T[],
): Promise<(T & { options: { name: string; values: string[] }[]; variants: ApiVariant[] })[]> {
  const sold = await variantsOfItems(
    db,
    items.map((i) => i.id),
  );
  return items.map((item) => {
    const product = sold.get(item.id) ?? { options: [], variants: [] };
    return {
      ...item,
      options: product.options.map((o) => ({ name: o.name, values: o.values.map((v) => v.value) })),
      variants: product.variants
        .filter((v) => v.active)
        .map((v) => ({ id: v.id, sku: v.sku, options: v.options, price: v.price, stock: v.stock })),
    };
  });
}

/** What a list's card shows of a product's variants: 'From ₹X' when their prices differ, its first option's values. */
export interface CardVariants {
  /** the variants on sale differ in price: the card's price is the lowest, 'From' */
  from: boolean;
  /** the first option's name and values, in order */
  option: string;
  values: string[];
}

/** The card summaries of these products that are sold in several variants, by product id (two queries). */
export async function cardVariants(db: Db, itemIds: number[]): Promise<Record<number, CardVariants>> {
  const result: Record<number, CardVariants> = {};
  if (itemIds.length === 0) return result;
  const [values, prices] = await Promise.all([
    db
      .selectFrom("productOptionValues as v")
      .innerJoin("productOptions as o", "o.id", "v.optionId")
      .select(["v.itemId", "o.name", "v.value"])
      .where("v.itemId", "in", itemIds)
      .where("o.position", "=", 0)
      .orderBy("v.itemId")
      .orderBy("v.position")
      .execute(),
    db
      .selectFrom("productVariants")
      .select(["itemId", (eb) => eb.fn.min("price").as("low"), (eb) => eb.fn.max("price").as("high")])
      .where("itemId", "in", itemIds)
      .where("active", "=", 1)
      .groupBy("itemId")
      .execute(),
  ]);
  const range = new Map(prices.map((p) => [p.itemId, Number(p.high) > Number(p.low)]));
  for (const v of values) {
    const card = result[v.itemId] ?? { from: range.get(v.itemId) ?? false, option: v.name, values: [] };
    card.values.push(v.value);
    result[v.itemId] = card;
  }
  return result;
}

/** A page's cards, each product sold in several variants with its summary (`variants`). */
export function cardsWithVariants(items: Item[], summaries: Record<number, CardVariants>): CardItem[] {
  return items.map((item) => {
    const card = cardOf(item);
    const variants = summaries[item.id];
    return variants ? { ...card, variants } : card;
  });
}
