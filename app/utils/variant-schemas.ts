// What a product's options and variants may be, checked on the server for every writer (the staff's
// editor, the CSV import, the seed): at most three options, each with distinct values; one variant
// per combination, each with a unique SKU, a price and a stock.
import { z } from "zod";
import { ADMIN_LIMITS } from "./admin-fields";
import { LIST_QUERY_PARAMS } from "./option-filters";
import { slugify } from "./slug";

export const VARIANT_LIMITS = { options: 3, values: 20, name: 30, value: 40, sku: 40, variants: 100 } as const;

/**
 * Query parameters the product page and the lists (category, search, the catalogue API) already
 * use: an option's URL name (`?finish=walnut`) may not be one of them (compared as slugs, lower-case).
 */
export const RESERVED_OPTION_SLUGS: readonly string[] = [
  ...new Set([
    ...["tab", "photo", "pincode", "sort", "page", "quantity", "index", "variant"],
    ...LIST_QUERY_PARAMS.map((p) => p.toLowerCase()),
  ]),
];

/** A SKU: letters, digits and hyphens, starting with a letter or digit; kept upper-case. */
export const SKU_PATTERN = /^[A-Z0-9][A-Z0-9-]*$/;
const SKU_MESSAGE = `A SKU is 2 to ${VARIANT_LIMITS.sku} letters, digits or hyphens`;
/** FS-{product id} is each new product's own first SKU (migration 0032): never given by hand (a variant may keep its own). */
export const SHOP_SKU = /^FS-\d+$/;
export const SHOP_SKU_MESSAGE = "SKUs of the form FS-123 are the shop's own: please choose another";
/** A SKU's form, before the shop's own (FS-123) are set apart. */
export const SkuTextSchema = z
  .string({ error: SKU_MESSAGE })
  .trim()
  .toUpperCase()
  .min(2, SKU_MESSAGE)
  .max(VARIANT_LIMITS.sku, SKU_MESSAGE)
  .regex(SKU_PATTERN, SKU_MESSAGE);
export const SkuSchema = SkuTextSchema.refine((sku) => !SHOP_SKU.test(sku), SHOP_SKU_MESSAGE);

const text = (what: string, max: number) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .max(max, `${what} must be at most ${max} characters`);

const OptionSchema = z.object({
  name: text("An option's name", VARIANT_LIMITS.name),
  values: z.array(text("A value", VARIANT_LIMITS.value)).min(1, "An option needs at least one value").max(VARIANT_LIMITS.values),
});

const VariantSchema = z.object({
  /** its value of each option, in option order */
  values: z.array(z.string().trim()),
  sku: SkuSchema,
  price: z.number().int().min(0).max(ADMIN_LIMITS.maxPrice),
  stock: z.number().int().min(0).max(ADMIN_LIMITS.maxStock),
  active: z.boolean().default(true),
});

/** A product's options and the variants sold, checked against each other. */
export const VariantSetSchema = z
  .object({
    options: z.array(OptionSchema).min(1, "Give at least one option").max(VARIANT_LIMITS.options, "A product has at most three options"),
    variants: z.array(VariantSchema).min(1, "Give at least one variant").max(VARIANT_LIMITS.variants),
  })
  .superRefine((set, ctx) => {
    const problem = (message: string) => ctx.addIssue({ code: "custom", message });
    const names = set.options.map((o) => slugify(o.name));
    if (new Set(names).size !== names.length) problem("Two options have the same name");
    for (const name of names) {
      if (RESERVED_OPTION_SLUGS.includes(name)) problem(`"${name}" cannot be an option's name here`);
    }
    for (const option of set.options) {
      const slugs = option.values.map(slugify);
      if (new Set(slugs).size !== slugs.length) problem(`${option.name} has the same value twice`);
    }
    const seen = new Set<string>();
    const skus = new Set<string>();
    for (const variant of set.variants) {
      if (variant.values.length !== set.options.length) {
        problem("Each variant has one value of every option");
        continue;
      }
      variant.values.forEach((value, i) => {
        const option = set.options[i]!;
        if (!option.values.some((v) => slugify(v) === slugify(value))) problem(`${value} is not a value of ${option.name}`);
      });
      const key = variant.values.map(slugify).join("/");
      if (seen.has(key)) problem(`${variant.values.join(", ")} is given twice`);
      seen.add(key);
      if (skus.has(variant.sku)) problem(`The SKU ${variant.sku} is given twice`);
      skus.add(variant.sku);
    }
  });
export type VariantSet = z.output<typeof VariantSetSchema>;
