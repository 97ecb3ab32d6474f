// A product's variants as lists show them: the catalogue API's items with their options and
// variants on sale, and the cards of category, search and home pages with 'From ₹X' and the
// first option's values. One query per kind for a whole page.
import type { Db } from "~/lib/db.server";
import type { CardItem, Item } from "~/utils/catalogue";
import { cardOf } from "~/utils/catalogue";
import { photosOfVariant, photoWidths, renditionPath } from "~/utils/photos";
import { variantsOfItems } from "./variants.server";

/** A variant as the catalogue API answers it (docs/api.md, Variants). */
export interface ApiVariant {
  id: number;
  sku: string;
  /** its value of each option, by option name: { Fabric: "Velvet" } ({} for a product without options) */
  options: Record<string, string>;
  price: number;
  stock: number;
  /** its photos' paths (its own first, then the product's), or the product's drawing when it has none */
  images: string[];
}

/** The width of the rendition an API client is given of a photo: 960 px, or the photo's own when narrower. */
const API_IMAGE_WIDTH = 960;

/** Every photo of the given products, in order: the product, the variant it shows and its API path. */
async function apiPhotos(db: Db, itemIds: number[]) {
  if (!itemIds.length) return [];
  const rows = await db
    .selectFrom("productPhotos")
    .select(["itemId", "variantId", "renditionBase", "width"])
    .where("itemId", "in", itemIds)
    .orderBy("itemId")
    .orderBy("position")
    .orderBy("id")
    .execute();
  return rows.map((r) => {
    const widths = photoWidths(r.width);
    return {
      itemId: r.itemId,
      variantId: r.variantId,
      path: renditionPath(r.renditionBase, widths.find((w) => w >= API_IMAGE_WIDTH) ?? widths.at(-1)!, "webp"),
    };
  });
}

/**
 * Products as the catalogue API answers them: each with `options` (name and values, in order) and
 * its `variants` on sale. `price` and `stock` are already the variants' lowest and summed (the
 * database keeps them). One query per kind for the whole page.
 */
export async function withVariants<T extends { id: number; imgPath: string }>(
  db: Db,
  items: T[],
): Promise<(T & { options: { name: string; values: string[] }[]; variants: ApiVariant[] })[]> {
  const ids = items.map((i) => i.id);
  const [sold, photos] = await Promise.all([variantsOfItems(db, ids), apiPhotos(db, ids)]);
  return items.map((item) => {
    const product = sold.get(item.id) ?? { options: [], variants: [] };
    const own = photos.filter((p) => p.itemId === item.id);
    const images = (variantId: number) => {
      const paths = photosOfVariant(own, variantId).map((p) => p.path);
      return paths.length ? paths : [item.imgPath];
    };
    return {
      ...item,
      options: product.options.map((o) => ({ name: o.name, values: o.values.map((v) => v.value) })),
      variants: product.variants
        .filter((v) => v.active)
        .map((v) => ({ id: v.id, sku: v.sku, options: v.options, price: v.price, stock: v.stock, images: images(v.id) })),
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
