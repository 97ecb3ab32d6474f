// The admin forms' field rules: one source for the inputs' native attributes (fieldProps) and
// the zod schemas in admin-schemas.ts that the actions parse with. Zod-free, so the pages and
// components that print the attributes do not ship zod to the browser.
import type { FieldRule } from "./forms";

export const ADMIN_LIMITS = {
  title: 120,
  description: 2000,
  imgPath: 500,
  specs: 20,
  specKey: 60,
  specValue: 200,
  maxPrice: 10_000_000,
  maxStock: 100_000,
  query: 100,
} as const;

/**
 * The category form. The image URL is not `required` on the input: an uploaded file can take
 * its place (the server still requires one or the other).
 */
export const CATEGORY_FIELDS = {
  title: { required: true, maxLength: ADMIN_LIMITS.title },
  description: { required: true, maxLength: ADMIN_LIMITS.description },
  imgPath: { maxLength: ADMIN_LIMITS.imgPath },
} satisfies Record<string, FieldRule>;

/** The product form (the image URL as the category's; a specification row is a name and a value). */
export const PRODUCT_FIELDS = {
  title: CATEGORY_FIELDS.title,
  categoryId: { required: true },
  price: { required: true, type: "number" },
  description: CATEGORY_FIELDS.description,
  imgPath: CATEGORY_FIELDS.imgPath,
  stock: { type: "number" },
  /** the edit form's 'Adjust stock by': +5, -1 */
  stockDelta: { pattern: "\\s*[+\\-]?\\s*\\d+\\s*" },
  specKey: { maxLength: ADMIN_LIMITS.specKey },
  specValue: { maxLength: ADMIN_LIMITS.specValue },
} satisfies Record<string, FieldRule>;

/**
 * An image address the shop accepts: an https URL (the page's CSP allows images from https
 * sites only) or a path on this site (/images/…, /uploads/…). Anything else (http:,
 * javascript:, data:, //host) is refused.
 */
export function isImageUrl(value: string): boolean {
  if (/\s/.test(value) || value.includes("\\")) return false;
  if (value.startsWith("/")) return !value.startsWith("//");
  try {
    const url = new URL(value);
    return url.protocol === "https:" && Boolean(url.hostname) && /^https:\/\//i.test(value);
  } catch {
    return false;
  }
}
