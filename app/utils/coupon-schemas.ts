// Coupons' zod schemas: the code a customer types (cart, checkout, API) and the staff's coupon form
// (/admin/coupons). The rules and messages are coupon-fields.ts's, which the inputs print too.
import { z } from "zod";
import { COUPON_FIELDS, COUPON_KINDS, COUPON_LIMITS, COUPON_MESSAGES, istDayEnd, istDayStart, normaliseCode } from "./coupon-fields";
import { formatCount } from "./money";
import { IdSchema } from "./schemas";

const CODE = new RegExp(`^${COUPON_FIELDS.code.pattern}$`);

/** A code as typed: trimmed and upper-cased; empty and malformed codes are refused with their message. */
export const CouponCodeSchema = z.preprocess(
  (v) => (typeof v === "string" ? normaliseCode(v) : v === undefined || v === null ? "" : v),
  z.string({ error: COUPON_MESSAGES.malformed }).min(1, COUPON_MESSAGES.empty).regex(CODE, COUPON_MESSAGES.malformed),
);

/** A form field's whole number: "" and absent are `undefined` (required) or `null` (optional). */
const wholeNumber = (optional: boolean) => (v: unknown) => {
  if (v === undefined || v === null) return optional ? null : undefined;
  if (typeof v !== "string") return v;
  const s = v.trim().replace(/,/g, "");
  if (s === "") return optional ? null : undefined;
  return /^\d{1,12}$/.test(s) ? Number(s) : NaN;
};

const rangeMessage = (label: string, max: number, min = 1) => `${label} must be a whole number from ${min} to ${formatCount(max)}`;

/** A required whole number from 1 to `max`. */
function count(label: string, max: number) {
  const message = rangeMessage(label, max);
  return z.preprocess(
    wholeNumber(false),
    z
      .number({ error: (issue) => (issue.input === undefined ? `${label} is required` : message) })
      .int(message)
      .min(1, message)
      .max(max, message),
  );
}

/** An optional whole number from `min` to `max`: empty is `null` (no limit). */
function optionalCount(label: string, max: number, min = 1) {
  const message = rangeMessage(label, max, min);
  return z.preprocess(wholeNumber(true), z.number({ error: message }).int(message).min(min, message).max(max, message).nullable());
}

/** A date field (YYYY-MM-DD, India's calendar); empty is `null`. */
const day = (label: string) =>
  z.preprocess(
    (v) => (v === undefined || v === null || (typeof v === "string" && v.trim() === "") ? null : typeof v === "string" ? v.trim() : v),
    z
      .string({ error: `${label} must be a date` })
      .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date`)
      .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), {
        message: `${label} must be a date`,
      })
      .nullable(),
  );

const ids = z.preprocess(
  (v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]),
  z.array(IdSchema).max(COUPON_LIMITS.categories, `At most ${COUPON_LIMITS.categories} categories`),
);

/**
 * The staff's coupon: a code, a percentage (1-100) or fixed rupees, a minimum subtotal (0 or more),
 * an optional cap, an optional validity window (days in India, the last one included: until
 * must not be before from), optional total and per-customer limits, and optional categories.
 */
export const CouponFormSchema = z
  .object({
    code: CouponCodeSchema,
    kind: z.enum(COUPON_KINDS, { error: "Choose a percentage or a fixed amount" }),
    value: count("Value", COUPON_LIMITS.maxAmount),
    minSubtotal: optionalCount("Minimum subtotal", COUPON_LIMITS.maxAmount, 0),
    maxDiscount: optionalCount("Maximum discount", COUPON_LIMITS.maxAmount),
    validFrom: day("Valid from"),
    validUntil: day("Valid until"),
    usageLimit: optionalCount("Total uses", COUPON_LIMITS.maxUses),
    perCustomerLimit: optionalCount("Uses per customer", COUPON_LIMITS.maxUses),
    categoryIds: ids,
  })
  .superRefine((v, ctx) => {
    if (v.kind === "percent" && v.value > 100) {
      ctx.addIssue({ code: "custom", path: ["value"], message: "A percentage must be a whole number from 1 to 100" });
    }
    if (v.kind === "fixed" && v.maxDiscount !== null) {
      ctx.addIssue({ code: "custom", path: ["maxDiscount"], message: "A fixed amount is its own maximum: leave this empty" });
    }
    if (v.validFrom && v.validUntil && v.validUntil < v.validFrom) {
      ctx.addIssue({ code: "custom", path: ["validUntil"], message: "Valid until must be on or after valid from" });
    }
    if (v.usageLimit !== null && v.perCustomerLimit !== null && v.perCustomerLimit > v.usageLimit) {
      ctx.addIssue({ code: "custom", path: ["perCustomerLimit"], message: "Uses per customer cannot be more than the total uses" });
    }
  })
  .transform((v) => ({
    code: v.code,
    kind: v.kind,
    value: v.value,
    minSubtotal: v.minSubtotal ?? 0,
    maxDiscount: v.maxDiscount,
    validFrom: v.validFrom ? istDayStart(v.validFrom) : null,
    validUntil: v.validUntil ? istDayEnd(v.validUntil) : null,
    usageLimit: v.usageLimit,
    perCustomerLimit: v.perCustomerLimit,
    categoryIds: [...new Set(v.categoryIds)],
  }));
export type CouponInput = z.output<typeof CouponFormSchema>;
