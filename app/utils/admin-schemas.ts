// The admin forms' schemas (docs/product.md, "Admin forms"), shared by the pages' actions, the
// CSV import and their tests. Lengths and required fields come from the field rules in
// admin-fields.ts, which the inputs print too. Messages name the field, as the storefront's forms do.
import { z } from "zod";
import { ADMIN_LIMITS, CATEGORY_FIELDS, isImageUrl, PRODUCT_FIELDS } from "./admin-fields";
import type { FieldRule } from "./forms";
import { ORDER_STATUSES } from "./order-status";
import { IdSchema } from "./schemas";

export { ADMIN_LIMITS, isImageUrl } from "./admin-fields";

const text = z.preprocess((v) => (v === undefined || v === null ? "" : v), z.string({ error: "Must be text" }));

/** A text field as its rule says: trimmed, '{label} is required' when required, at most maxLength. */
const textField = (label: string, rule: FieldRule) => {
  let field = z.string().trim();
  if (rule.required) field = field.min(1, `${label} is required`);
  if (rule.maxLength !== undefined) field = field.max(rule.maxLength, `${label} must be at most ${rule.maxLength} characters`);
  return text.pipe(field);
};

/**
 * An image address (isImageUrl: https, or a path on this site). Always required here, though
 * the input is not: the forms' uploaded file stands in for it. URLs are stored as the browser
 * would read them.
 */
export const ImageUrlSchema = text.pipe(
  z
    .string()
    .trim()
    .min(1, "Image URL is required")
    .max(CATEGORY_FIELDS.imgPath.maxLength, `Image URL must be at most ${CATEGORY_FIELDS.imgPath.maxLength} characters`)
    .refine(isImageUrl, "Please enter a valid image URL (https://… or /images/…)")
    .transform((v) => (v.startsWith("/") ? v : new URL(v).href)),
);

export const CategoryFormSchema = z.object({
  title: textField("Title", CATEGORY_FIELDS.title),
  description: textField("Description", CATEGORY_FIELDS.description),
  imgPath: ImageUrlSchema,
});
export type CategoryInput = z.output<typeof CategoryFormSchema>;

/** A checkbox: present ("on", "true", "1") is true; missing is false. */
export const checkbox = z.preprocess((v) => v === true || v === "on" || v === "true" || v === "1" || v === "yes", z.boolean());

/** Rupees: a number at least 0 (the form's step is 0.01); money is kept in whole rupees, so it is rounded. */
export const PriceSchema = z.preprocess(
  (v) => (typeof v === "string" ? (v.trim() === "" ? undefined : Number(v.trim().replace(/,/g, ""))) : v),
  z
    .number({ error: (issue) => (issue.input === undefined ? "Price is required" : "Price must be a number") })
    .refine(Number.isFinite, "Price must be a number")
    .min(0, "Price must be 0 or more")
    .max(ADMIN_LIMITS.maxPrice, `Price must be at most ${ADMIN_LIMITS.maxPrice}`)
    .transform((v) => Math.round(v)),
);

const STOCK_MESSAGE = `Stock must be a whole number from 0 to ${ADMIN_LIMITS.maxStock}`;
export const StockSchema = z.preprocess(
  (v) => (typeof v === "string" ? (v.trim() === "" ? 0 : /^\s*\d+\s*$/.test(v) ? Number(v) : NaN) : (v ?? 0)),
  z.number({ error: STOCK_MESSAGE }).int(STOCK_MESSAGE).min(0, STOCK_MESSAGE).max(ADMIN_LIMITS.maxStock, STOCK_MESSAGE),
);

const list = z.preprocess(
  (v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]),
  z.array(z.string({ error: "Must be text" })),
);

const SPEC_KEY_MAX = PRODUCT_FIELDS.specKey.maxLength;
const SPEC_VALUE_MAX = PRODUCT_FIELDS.specValue.maxLength;

/** Specification rows as key/value pairs: blank rows are dropped, keys must be unique. */
export const SpecificationsSchema = z.object({ keys: list, values: list }).transform((v, ctx) => {
  const out: Record<string, string> = {};
  const rows = Math.max(v.keys.length, v.values.length);
  for (let i = 0; i < rows; i++) {
    const key = (v.keys[i] ?? "").trim();
    const value = (v.values[i] ?? "").trim();
    if (!key && !value) continue;
    const problem = !key
      ? `Row ${i + 1}: give the specification a name`
      : !value
        ? `Row ${i + 1}: give "${key}" a value`
        : key.length > SPEC_KEY_MAX || value.length > SPEC_VALUE_MAX
          ? `Row ${i + 1}: names are at most ${SPEC_KEY_MAX} characters and values ${SPEC_VALUE_MAX}`
          : Object.keys(out).some((k) => k.toLowerCase() === key.toLowerCase())
            ? `Row ${i + 1}: "${key}" is listed twice`
            : null;
    if (problem) {
      ctx.addIssue({ code: "custom", message: problem });
      return z.NEVER;
    }
    out[key] = value;
  }
  if (Object.keys(out).length > ADMIN_LIMITS.specs) {
    ctx.addIssue({ code: "custom", message: `At most ${ADMIN_LIMITS.specs} specifications` });
    return z.NEVER;
  }
  return out;
});

/** A product's own fields, the same in the new-product form, the edit form and the CSV import. */
const productDetails = {
  title: textField("Title", PRODUCT_FIELDS.title),
  categoryId: z
    .preprocess((v) => (v === "" || v === undefined ? null : v), IdSchema.nullable())
    .refine((v) => v !== null, "Category is required"),
  price: PriceSchema,
  imgPath: ImageUrlSchema,
  description: textField("Description", PRODUCT_FIELDS.description),
  featured: checkbox,
  /** made after it is ordered: delivery takes at least MADE_TO_ORDER_DAYS (ADR 0017) */
  madeToOrder: checkbox,
  specifications: SpecificationsSchema,
};

const NEEDS_STOCK = "Enter the units in stock (at least 1), or untick In Stock";

/** A new product (and a CSV row): its fields and its units in stock. */
export const ProductFormSchema = z
  .object({ ...productDetails, inStock: checkbox, stock: StockSchema })
  .superRefine((v, ctx) => {
    if (v.inStock && v.stock === 0) ctx.addIssue({ code: "custom", path: ["stock"], message: NEEDS_STOCK });
  })
  .transform((v) => ({ ...v, categoryId: v.categoryId!, stock: v.inStock ? v.stock : 0 }));
export type ProductInput = z.output<typeof ProductFormSchema>;

/** A product's fields without its stock: what an edit writes over the row. */
export type ProductDetails = Omit<ProductInput, "inStock" | "stock">;

/**
 * How an edit changes the stock: to a figure (only with the version it was read at: In Stock
 * unticked sets 0, the CSV's column), by an adjustment applied in SQL on top of whatever
 * customers bought meanwhile (the edit form's 'Adjust stock by'), or not at all.
 */
export type StockChange = { to: number } | { by: number; keepInStock: boolean } | null;

/**
 * An edit of a product: its fields, the stock change, and the version of the row it was made
 * from (docs/decisions/0008: a product that changed since is refused). `stockSeen` is the stock
 * the editor was shown, for the refusal's words.
 */
export type ProductEdit = ProductDetails & { stock: StockChange; version: number | null; stockSeen?: number };

export const ADJUST_MESSAGE = "Adjust the stock by a whole number, like +5 or -1";
/** '+5', '-1', '3' (spaces allowed); empty is no change. */
export const StockAdjustmentSchema = z.preprocess(
  // Trimmed first: the pattern then has no two runs of spaces that could share them (linear time).
  (v) => (typeof v === "string" ? (v.trim() === "" ? 0 : /^[+-]?\s*\d+$/.test(v.trim()) ? Number(v.replace(/\s/g, "")) : NaN) : (v ?? 0)),
  z
    .number({ error: ADJUST_MESSAGE })
    .int(ADJUST_MESSAGE)
    .min(-ADMIN_LIMITS.maxStock, ADJUST_MESSAGE)
    .max(ADMIN_LIMITS.maxStock, ADJUST_MESSAGE),
);

/** A whole number the page put in a hidden field (a row's version, the stock shown); anything else is null. */
const counter = z.preprocess(
  (v) => (typeof v === "string" && /^\s*\d{1,9}\s*$/.test(v) ? Number(v) : typeof v === "number" ? v : null),
  z.number().int().min(0).nullable().catch(null),
);

/**
 * The edit form: the product's fields, In Stock and 'Adjust stock by' (`stockDelta`), the hidden
 * `version` and `stockSeen`. A client may send the units in stock (`stock`) instead of an
 * adjustment: that figure is written only if the version is still the row's.
 */
export const ProductEditSchema = z
  .object({
    ...productDetails,
    inStock: checkbox,
    stock: z.preprocess(
      (v) => (v === undefined || v === null || (typeof v === "string" && v.trim() === "") ? undefined : v),
      StockSchema.optional(),
    ),
    stockDelta: StockAdjustmentSchema,
    version: counter,
    stockSeen: counter,
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (!v.inStock && v.stockDelta !== 0)
      issue("stockDelta", "Tick In Stock to change the stock, or leave this empty to mark the product out of stock");
    else if (v.inStock && v.stock !== undefined && v.stockDelta !== 0)
      issue("stockDelta", "Give the units in stock or an adjustment, not both");
    else if (v.inStock && v.stock === 0) issue("stock", NEEDS_STOCK);
  })
  .transform(({ inStock, stock, stockDelta, version, stockSeen, ...details }): ProductEdit => {
    const change: StockChange = !inStock ? { to: 0 } : stock !== undefined ? { to: stock } : { by: stockDelta, keepInStock: true };
    return { ...details, categoryId: details.categoryId!, stock: change, version, stockSeen: stockSeen ?? undefined };
  });

/** A product form as posted: the spec rows arrive as repeated specKey/specValue fields. */
export function productFormInput(form: FormData): Record<string, unknown> {
  const one = (k: string) => form.get(k) ?? undefined;
  return {
    title: one("title"),
    categoryId: one("categoryId"),
    price: one("price"),
    imgPath: one("imgPath"),
    description: one("description"),
    featured: one("featured"),
    madeToOrder: one("madeToOrder"),
    inStock: one("inStock"),
    stock: one("stock"),
    specifications: { keys: form.getAll("specKey"), values: form.getAll("specValue") },
  };
}

/** The edit form as posted: the new-product form's fields, the adjustment and the hidden version. */
export function productEditInput(form: FormData): Record<string, unknown> {
  const one = (k: string) => form.get(k) ?? undefined;
  return { ...productFormInput(form), stockDelta: one("stockDelta"), version: one("version"), stockSeen: one("stockSeen") };
}

/** A calendar day as a date input sends it (YYYY-MM-DD); anything else means no limit (""). */
const DaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00+05:30`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v))
  .catch("");

/** The first instant of a day in India (UTC+5:30), as the ISO timestamps the database keeps. */
export function startOfIndianDay(day: string): string {
  return new Date(`${day}T00:00:00+05:30`).toISOString();
}

/** The list pages' filters in the URL (?q=&category=&status=…; the page is the paging module's); anything odd falls back to the default. */
export const AdminListQuerySchema = z.object({
  q: z.string().trim().max(ADMIN_LIMITS.query).catch(""),
  category: z.union([z.literal("all"), IdSchema]).catch("all"),
  status: z.enum(["all", ...ORDER_STATUSES]).catch("all"),
  /** orders' 'More Filters': how it was paid, and placed from / to a day (India's calendar) */
  payment: z.enum(["all", "cod", "online"]).catch("all"),
  from: DaySchema,
  to: DaySchema,
});
export type AdminListQuery = z.output<typeof AdminListQuerySchema>;

export function parseAdminListQuery(url: URL): AdminListQuery {
  const p = url.searchParams;
  return AdminListQuerySchema.parse({
    q: p.get("q") ?? "",
    category: p.get("category") ?? "all",
    status: p.get("status") ?? "all",
    payment: p.get("payment") ?? "all",
    from: p.get("from") ?? "",
    to: p.get("to") ?? "",
  });
}
