// The checkout form's schema: the server parses every order (page and API) with CheckoutSchema,
// which reads the field rules of checkout-fields (the page's inputs carry the same rules).
import { z } from "zod";
import type { ShippingField } from "./checkout-fields";
import { isPincode } from "./delivery";
import { isEmailAddress } from "./field-lengths";
import { formatPrice } from "./money";
import {
  capitalised,
  CHECKOUT_MESSAGES,
  INDIAN_STATES,
  LENGTH_CHECKED,
  PAYMENT_METHODS,
  requiredMessage,
  SHIPPING_FIELDS,
  SHIPPING_RULES,
} from "./checkout-fields";

export type { ShippingField };
export { CHECKOUT_MESSAGES, INDIAN_STATES, PAYMENT_METHODS, requiredMessage, SHIPPING_FIELDS, SHIPPING_RULES };
export { SHIPPING_MAX } from "./checkout-fields";

/** A state as typed, in the list's spelling when it is one of them (case and spaces aside). */
/**
 * Cash on delivery takes no money up front, so unpaid orders must not be able to hold a shop's
 * stock: at most a few units of each piece, an order of at most maxTotal, and a few such orders
 * waiting at once per account (processing: not yet shipped, delivered or cancelled). Online
 * payment has its own cap on the total (MAX_ONLINE_PAYMENT) and none of the others.
 */
export const COD_LIMITS = { unitsPerPiece: 10, openOrders: 5, maxTotal: 1_000_000 } as const;

export const COD_MESSAGES = {
  tooManyUnits: (title: string) =>
    `Cash on delivery takes up to ${COD_LIMITS.unitsPerPiece} of each piece (${title}). Please pay online, or lower the quantity.`,
  tooLarge: `Cash on delivery takes orders of up to ${formatPrice(COD_LIMITS.maxTotal)}. Please pay online, or split the order.`,
  tooManyOpen:
    `You already have ${COD_LIMITS.openOrders} cash on delivery orders waiting to be shipped. ` +
    "Please pay online, or wait until one of them has shipped.",
};

/**
 * A payment on the offline test gateway moves no money either (a shop without Razorpay keys):
 * the same caps as cash on delivery hold for it, in its own words (without them one new account
 * could take a piece's whole stock with test payments).
 */
export const TEST_PAYMENT_MESSAGES = {
  tooManyUnits: (title: string) =>
    `Test payments take up to ${COD_LIMITS.unitsPerPiece} of each piece (${title}), since no money moves. Please lower the quantity.`,
  tooLarge: COD_MESSAGES.tooLarge,
  tooManyOpen:
    `You already have ${COD_LIMITS.openOrders} unpaid orders (cash on delivery or test payments) waiting to be shipped. ` +
    "Please wait until one of them has shipped.",
};

export function canonicalState(raw: string): string {
  const key = raw.trim().replace(/\s+/g, " ").toLowerCase();
  return INDIAN_STATES.find((s) => s.toLowerCase() === key) ?? raw.trim().replace(/\s+/g, " ");
}

/** Phone numbers: exactly 10 digits once spaces, dashes and a +91 prefix are set aside. */
export function normalisePhone(raw: string): string | null {
  const compact = raw.replace(/[\s-]/g, "").replace(/^(\+91|0091)/, "");
  return /^\d{10}$/.test(compact) ? compact : null;
}

const text = z.preprocess(
  (v) => (v === undefined || v === null ? "" : typeof v === "number" ? String(v) : v),
  z.string({ error: "Must be text" }),
);

export const CheckoutSchema = z
  .object({
    name: text,
    address: text,
    city: text,
    state: text,
    pincode: text,
    phone: text,
    email: text,
    paymentMethod: z.preprocess(
      (v) => (v === undefined || v === null || v === "" ? "cod" : v),
      z.enum(PAYMENT_METHODS, { error: CHECKOUT_MESSAGES.paymentMethod }),
    ),
  })
  .superRefine((v, ctx) => {
    for (const field of SHIPPING_FIELDS) {
      const value = v[field].trim();
      const rule = SHIPPING_RULES[field];
      if (!value) {
        if (rule.required) ctx.addIssue({ code: "custom", path: [field], message: requiredMessage(field) });
        continue;
      }
      if (LENGTH_CHECKED.includes(field) && value.length > rule.maxLength) {
        ctx.addIssue({ code: "custom", path: [field], message: `${capitalised(field)} must be at most ${rule.maxLength} characters` });
      }
    }
    if (v.phone.trim() && !normalisePhone(v.phone)) ctx.addIssue({ code: "custom", path: ["phone"], message: CHECKOUT_MESSAGES.phone });
    if (v.email.trim() && !isEmailAddress(v.email.trim(), Number.POSITIVE_INFINITY)) {
      ctx.addIssue({ code: "custom", path: ["email"], message: CHECKOUT_MESSAGES.email });
    }
    if (v.pincode.trim() && !isPincode(v.pincode.replace(/\s/g, ""))) {
      ctx.addIssue({ code: "custom", path: ["pincode"], message: CHECKOUT_MESSAGES.pincode });
    }
  })
  .transform((v) => ({
    shipping: {
      name: v.name.trim().replace(/\s+/g, " "),
      address: v.address.trim(),
      city: v.city.trim().replace(/\s+/g, " "),
      state: canonicalState(v.state),
      pincode: v.pincode.replace(/\s/g, ""),
      phone: normalisePhone(v.phone)!,
      email: v.email.trim().toLowerCase(),
    },
    paymentMethod: v.paymentMethod,
  }));

export type CheckoutInput = z.output<typeof CheckoutSchema>;
export type ShippingAddress = CheckoutInput["shipping"];

/** An idempotency key a checkout form carries: one per rendered form. */
export const IdempotencyKeySchema = z
  .string({ error: "The form is out of date. Please try again." })
  .regex(/^[A-Za-z0-9_-]{16,64}$/, "The form is out of date. Please try again.");

/** Razorpay's three callback fields (also what the offline test gateway produces). */
export const PaymentProofSchema = z.object({
  razorpay_order_id: z
    .string({ error: "razorpay_order_id is required" })
    .trim()
    .min(1, "razorpay_order_id is required")
    .max(64, "razorpay_order_id is too long"),
  razorpay_payment_id: z
    .string({ error: "razorpay_payment_id is required" })
    .trim()
    .min(1, "razorpay_payment_id is required")
    .max(64, "razorpay_payment_id is too long"),
  razorpay_signature: z
    .string({ error: "razorpay_signature is required" })
    .trim()
    .min(1, "razorpay_signature is required")
    .max(256, "razorpay_signature is too long"),
});
export type PaymentProof = z.output<typeof PaymentProofSchema>;
