// Coupons' field rules and messages (docs/product.md, Coupons), zod-free so the pages that print
// the inputs' attributes ship no zod: the code's shape, the admin form's fields, the customer's
// refusals, and the India-time days a coupon's validity is entered in.
import type { FieldRule } from "./forms";
import { formatDateTime, formatLongDate } from "./dates";
import { formatPrice } from "./money";

export const COUPON_LIMITS = {
  codeMin: 3,
  codeMax: 32,
  /** rupees: a fixed discount, a minimum subtotal or a cap (the price ceiling of a product) */
  maxAmount: 10_000_000,
  maxUses: 1_000_000,
  /** categories one coupon may name */
  categories: 50,
} as const;

/** Letters, digits, '-' and '_'; matched without case (stored upper-case). */
export const COUPON_CODE_PATTERN = `[A-Za-z0-9_\\-]{${COUPON_LIMITS.codeMin},${COUPON_LIMITS.codeMax}}`;

export const COUPON_FIELDS = {
  code: { required: true, maxLength: COUPON_LIMITS.codeMax, pattern: COUPON_CODE_PATTERN },
  value: { required: true, type: "number" },
  minSubtotal: { type: "number" },
  maxDiscount: { type: "number" },
  usageLimit: { type: "number" },
  perCustomerLimit: { type: "number" },
} satisfies Record<string, FieldRule>;

/** The customer's coupon field (cart and checkout): not `required`, so 'Remove' posts without it. */
export const COUPON_INPUT = { maxLength: COUPON_LIMITS.codeMax } satisfies FieldRule;

/** The coupon box's intents (cart and checkout pages post them to their own action). */
export const COUPON_INTENTS = ["apply-coupon", "remove-coupon"] as const;

export const COUPON_KINDS = ["percent", "fixed"] as const;
export const COUPON_KIND_LABELS: Record<(typeof COUPON_KINDS)[number], string> = {
  percent: "Percentage off",
  fixed: "Fixed amount off (₹)",
};

/** A code as stored and compared: trimmed, upper-case. */
export function normaliseCode(raw: string): string {
  return raw.trim().toUpperCase();
}

const IST_OFFSET_MS = 330 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The instant a day (YYYY-MM-DD) begins in India. */
export function istDayStart(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) - IST_OFFSET_MS).toISOString();
}

/** The instant after a day (YYYY-MM-DD) ends in India: a coupon valid until that day stops then. */
export function istDayEnd(day: string): string {
  return new Date(Date.parse(istDayStart(day)) + DAY_MS).toISOString();
}

/** The India day (YYYY-MM-DD) an instant falls on; `end`: the last day of a window that stops at it. */
export function istDay(iso: string, end = false): string {
  return new Date(Date.parse(iso) + IST_OFFSET_MS - (end ? 1 : 0)).toISOString().slice(0, 10);
}

/** The last day a coupon ending at `until` can be used, as the shop writes dates. */
export function lastDay(until: string): string {
  return formatLongDate(new Date(Date.parse(until) - 1).toISOString());
}

/** Why a code gives nothing, in the customer's words (each beside the coupon field). */
export const COUPON_MESSAGES = {
  empty: "Please enter a coupon code.",
  malformed: `Coupon codes are ${COUPON_LIMITS.codeMin} to ${COUPON_LIMITS.codeMax} letters or digits (and - or _).`,
  unknown: (code: string) => `We don't recognise the code ${code}. Please check it and try again.`,
  notYet: (code: string, from: string) => `The code ${code} can be used from ${formatLongDate(from)}.`,
  expired: (code: string, until: string) => `The code ${code} expired on ${lastDay(until)}.`,
  paused: (code: string) => `The code ${code} is paused at the moment. Please try again later.`,
  usedUp: (code: string) => `The code ${code} has been used as many times as it can be.`,
  perCustomer: (code: string, limit: number) =>
    limit === 1 ? `You have already used the code ${code}.` : `You have already used the code ${code} ${limit} times, the most it allows.`,
  /** the customer's own payments, unpaid or not yet ordered, hold what their limit has left (`until`: the first such hold's end) */
  heldForYou: (code: string, until: string | null) =>
    until
      ? `A payment you started holds the code ${code} until ${formatDateTime(until)}. ` +
        "Please pay it on its payment page, or use the code again after then."
      : `A payment of yours holds the code ${code} already. Please place its order from its payment page.`,
  /** what the total limit has left is held by customers paying now (`until`: when the first of those holds ends) */
  allHeld: (code: string, until: string | null) =>
    `Every use of the code ${code} left is held by customers paying now. ` +
    `Please try again ${until ? `after ${formatDateTime(until)}` : "later"}.`,
  /** a payment that arrived after its hold on the code ended, when the code no longer applies: it is refunded */
  lapsed: (reason: string) => `${reason} Your payment arrived after its hold on the code had ended.`,
  belowMinimum: (code: string, min: number, missing: number) =>
    `The code ${code} needs a subtotal of at least ${formatPrice(min)}. Add ${formatPrice(missing)} more to use it.`,
  notApplicable: (code: string, categories: string[]) =>
    categories.length === 0
      ? `The code ${code} does not apply to anything in your cart.`
      : `The code ${code} applies only to ${listOf(categories)}, and your cart has none of them.`,
  signIn: "Please log in to use a coupon code.",
  /** the staff deleted the coupon a payment was priced with */
  gone: "This coupon is no longer offered.",
};

/** 'Bedroom', 'Bedroom and Office', 'Bedroom, Office and Outdoor'. */
function listOf(names: string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** 10% off (at most ₹2,000), ₹500 off: how a coupon's deal reads in lists and the cart. */
export function describeDeal(c: { kind: "percent" | "fixed"; value: number; maxDiscount: number | null }): string {
  const deal = c.kind === "percent" ? `${c.value}% off` : `${formatPrice(c.value)} off`;
  return c.kind === "percent" && c.maxDiscount !== null ? `${deal} (at most ${formatPrice(c.maxDiscount)})` : deal;
}
