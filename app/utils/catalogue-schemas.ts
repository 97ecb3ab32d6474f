// The category and search pages' query schema (read by their loaders, on the server only). Apart from
// catalogue.ts so that the pages' browser code, which imports catalogue.ts, does not ship zod (ADR 0016).
import { z } from "zod";
import type { PriceRange } from "./catalogue";
import { PRICE_RANGE_KEYS, SORTS } from "./catalogue";

const listOf = <T extends string>(values: readonly [T, ...T[]]) =>
  z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.enum(values)).max(values.length));

/** The category page's GET form. Unknown values are refused with 400, not silently ignored. */
export const CategoryQuerySchema = z.object({
  sort: z.enum(SORTS).catch("default"),
  availability: listOf(["in-stock", "out-of-stock"]),
  price: listOf(PRICE_RANGE_KEYS as [PriceRange, ...PriceRange[]]),
  featured: z.preprocess((v) => (Array.isArray(v) ? v[0] : v), z.enum(["1"]).optional()),
});
export type CategoryQuery = z.infer<typeof CategoryQuerySchema>;
