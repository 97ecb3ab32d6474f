// The staff's variants page, one schema per form (app/routes/admin.products_.$id.variants.tsx):
// options and their values, generating the combinations, a variant's details, its stock
// adjustment ('+5', '-1', relative and checked against the version the page was opened at) and
// one price for every variant. The rules they share live in variant-schemas and admin-schemas.
import { z } from "zod";
import { ADJUST_MESSAGE, checkbox, PriceSchema, StockAdjustmentSchema, StockSchema } from "./admin-schemas";
import { IdSchema } from "./schemas";
import { slugify } from "./slug";
import { RESERVED_OPTION_SLUGS, SkuTextSchema, VARIANT_LIMITS } from "./variant-schemas";

const text = (what: string, max: number) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .max(max, `${what} must be at most ${max} characters`)
    .refine((v) => /[a-z0-9]/i.test(v), `${what} needs a letter or a digit`);

export const OptionNameSchema = text("The option's name", VARIANT_LIMITS.name).refine(
  (name) => !(RESERVED_OPTION_SLUGS as readonly string[]).includes(slugify(name)),
  "That name is taken by the product page's own links: please choose another",
);
export const OptionValueSchema = text("The value", VARIANT_LIMITS.value);

/** Values typed one a line or separated by commas ("Linen, Velvet"), each checked, none twice. */
const ValueListSchema = z
  .string({ error: "Give at least one value" })
  .transform((v) =>
    v
      .split(/[,\n]/)
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(OptionValueSchema)
      .min(1, "Give at least one value")
      .max(VARIANT_LIMITS.values, `An option has at most ${VARIANT_LIMITS.values} values`),
  )
  .superRefine((values, ctx) => {
    const slugs = values.map(slugify);
    const twice = values.find((v, i) => slugs.indexOf(slugify(v)) !== i);
    if (twice) ctx.addIssue({ code: "custom", message: `${twice} is given twice` });
  });

/** The version of a variant the form was opened at: without it a change cannot be checked, and is refused. */
const VersionSchema = z.preprocess(
  (v) => (typeof v === "string" && /^\s*\d{1,9}\s*$/.test(v) ? Number(v) : v),
  z.number({ error: "This form is out of date: reload the page and try again" }).int().min(0),
);

/** The largest weight (grams) or dimension (centimetres) a variant may be given. */
export const MAX_MEASURE = 1_000_000;

/** Grams or centimetres: empty is not given; otherwise a whole number above 0. */
const measure = (what: string) =>
  z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? null : /^\s*\d+\s*$/.test(v) ? Number(v) : NaN) : (v ?? null)),
    z
      .number({ error: `${what} must be a whole number above 0, or empty` })
      .int(`${what} must be a whole number above 0, or empty`)
      .min(1, `${what} must be a whole number above 0, or empty`)
      .max(MAX_MEASURE, `${what} must be at most ${MAX_MEASURE}`)
      .nullable(),
  );

export const AddOptionSchema = z.object({ name: OptionNameSchema, values: ValueListSchema });
export const OptionIdSchema = z.object({ optionId: IdSchema });
export const AddValueSchema = z.object({ optionId: IdSchema, value: OptionValueSchema });
export const ValueIdSchema = z.object({ valueId: IdSchema });
export const RenameValueSchema = z.object({ valueId: IdSchema, value: OptionValueSchema });

/** Generating the missing combinations: the price and stock each new variant starts from. */
export const GenerateSchema = z.object({ price: PriceSchema, stock: StockSchema });
export const PriceForAllSchema = z.object({ price: PriceSchema });

export const VariantIdSchema = z.object({ variantId: IdSchema });
export const VariantDetailsSchema = z.object({
  variantId: IdSchema,
  version: VersionSchema,
  /** a shop's own SKU (FS-123) only where the variant has it already: checked against the row */
  sku: SkuTextSchema,
  price: PriceSchema,
  active: checkbox,
  weightGrams: measure("The weight"),
  lengthCm: measure("The length"),
  widthCm: measure("The width"),
  heightCm: measure("The height"),
});
export type VariantDetails = z.output<typeof VariantDetailsSchema>;

export const AdjustStockSchema = z.object({
  variantId: IdSchema,
  version: VersionSchema,
  /** the units the page showed, for the words of a refusal */
  stockSeen: z.preprocess((v) => (typeof v === "string" && /^\d{1,9}$/.test(v) ? Number(v) : undefined), z.number().int().optional()),
  stockDelta: StockAdjustmentSchema.refine((n) => n !== 0, ADJUST_MESSAGE),
});
