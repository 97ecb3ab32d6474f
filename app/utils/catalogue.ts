// Shared (client + server) catalogue shapes and the category page's query parameters. Free of zod, so
// the pages' browser code may import it; the query's schema and its type, CategoryQuery, are
// catalogue-schemas.ts (server use only; browser code imports the type alone).

export interface Category {
  id: number;
  title: string;
  description: string;
  slug: string;
  imgPath: string;
}

export interface Item {
  id: number;
  categoryId: number;
  title: string;
  slug: string;
  description: string;
  price: number;
  imgPath: string;
  featured: boolean;
  /** made after it is ordered: delivery takes at least 14-21 business days (ADR 0017) */
  madeToOrder: boolean;
  inStock: boolean;
  stock: number;
  specifications: Record<string, string>;
  /** the average of the product's visible reviews, to one decimal; null without any (ADR 0018) */
  averageRating: number | null;
  reviewCount: number;
}

export const SORTS = ["default", "price-asc", "price-desc"] as const;
export type Sort = (typeof SORTS)[number];
export const SORT_LABELS: Record<Sort, string> = {
  default: "Default",
  "price-asc": "Price: Low to High",
  "price-desc": "Price: High to Low",
};

export const PRICE_RANGES = {
  "under-15000": { label: "Under 15,000", min: null, max: 14999 },
  "15000-30000": { label: "15,000-30,000", min: 15000, max: 30000 },
  "30000-50000": { label: "30,000-50,000", min: 30000, max: 50000 },
  "above-50000": { label: "Above 50,000", min: 50001, max: null },
} as const;
export type PriceRange = keyof typeof PRICE_RANGES;
export const PRICE_RANGE_KEYS = Object.keys(PRICE_RANGES) as PriceRange[];

export interface PriceBounds {
  min: number | null;
  max: number | null;
}

/**
 * The chosen price ranges as the fewest disjoint ranges, lowest first: ranges that overlap or touch
 * (prices are whole rupees, so 14,999 touches 15,000) become one. One range is one stretch of
 * (category_id, price, id, stock), read in the page's order; two separate ones would be read and sorted.
 */
export function mergedPriceRanges(keys: readonly PriceRange[]): PriceBounds[] {
  const ranges = [...new Set(keys)].map((key) => ({ min: PRICE_RANGES[key].min, max: PRICE_RANGES[key].max }) as PriceBounds);
  ranges.sort((a, b) => (a.min ?? -Infinity) - (b.min ?? -Infinity));
  const merged: PriceBounds[] = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && (last.max === null || (range.min ?? -Infinity) <= last.max + 1)) {
      last.max = last.max === null || range.max === null ? null : Math.max(last.max, range.max);
    } else merged.push({ ...range });
  }
  return merged;
}

export const AVAILABILITY = { "in-stock": "In Stock", "out-of-stock": "Out of Stock" } as const;
export type Availability = keyof typeof AVAILABILITY;

/**
 * A query string as an object for a schema: a repeated key's values as an array, in one pass
 * (a `getAll` per distinct key took quadratic time: 0.1 s for a 16 KB query of distinct keys).
 */
export function searchParamsToObject(params: URLSearchParams): Record<string, string | string[]> {
  const out = new Map<string, string | string[]>();
  for (const [key, value] of params) {
    const seen = out.get(key);
    if (seen === undefined) out.set(key, value);
    else if (Array.isArray(seen)) seen.push(value);
    else out.set(key, [seen, value]);
  }
  return Object.fromEntries(out);
}

export function truncate(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max).trimEnd()}...` : text;
}

/**
 * A product as a list's card shows it (category, search, home, related, wishlist): its summary
 * instead of the whole description, and nothing of its specifications or stock figure. A page's
 * loader sends only this, so a list of 24 is not 24 full products in the HTML and its data.
 */
export type CardItem = Pick<
  Item,
  "id" | "title" | "slug" | "price" | "imgPath" | "featured" | "inStock" | "averageRating" | "reviewCount"
> & {
  /** the description cut to what a card has room for */
  summary: string;
  /** a product sold in several variants: whether its price is 'From', and its first option's values */
  variants?: { from: boolean; option: string; values: string[] };
};

export function cardOf(item: Item): CardItem {
  const { id, title, slug, price, imgPath, featured, inStock, averageRating, reviewCount } = item;
  return { id, title, slug, price, imgPath, featured, inStock, averageRating, reviewCount, summary: truncate(item.description) };
}
