// The checkout form: its fields, the spec's messages (section 5) and the states of India.
// The server parses every order (page and API) with CheckoutSchema; the page uses the lists.
import { z } from "zod";
import { MAX_LENGTH } from "./schemas";

export const INDIAN_STATES = [
  "Andaman and Nicobar Islands", "Andhra Pradesh", "Arunachal Pradesh", "Assam", "Bihar", "Chandigarh",
  "Chhattisgarh", "Dadra and Nagar Haveli and Daman and Diu", "Delhi", "Goa", "Gujarat", "Haryana",
  "Himachal Pradesh", "Jammu and Kashmir", "Jharkhand", "Karnataka", "Kerala", "Ladakh", "Lakshadweep",
  "Madhya Pradesh", "Maharashtra", "Manipur", "Meghalaya", "Mizoram", "Nagaland", "Odisha", "Puducherry",
  "Punjab", "Rajasthan", "Sikkim", "Tamil Nadu", "Telangana", "Tripura", "Uttar Pradesh", "Uttarakhand",
  "West Bengal",
] as const;

/** A state as typed, in the list's spelling when it is one of them (case and spaces aside). */
export function canonicalState(raw: string): string {
  const key = raw.trim().replace(/\s+/g, " ").toLowerCase();
  return INDIAN_STATES.find((s) => s.toLowerCase() === key) ?? raw.trim().replace(/\s+/g, " ");
}

export const SHIPPING_FIELDS = ["name", "address", "city", "state", "pincode", "phone", "email"] as const;
export type ShippingField = (typeof SHIPPING_FIELDS)[number];

export const SHIPPING_MAX: Record<ShippingField, number> = {
  name: MAX_LENGTH.name,
  address: 300,
  city: 80,
  state: 80,
  pincode: 6,
  phone: 16,
  email: MAX_LENGTH.email,
};

export const CHECKOUT_MESSAGES = {
  phone: "Please enter a valid 10-digit phone number",
  email: "Please enter a valid email address",
  pincode: "Please enter a valid 6-digit pincode",
  paymentMethod: "Please choose a payment method",
} as const;

const capitalised = (field: string) => `${field[0]!.toUpperCase()}${field.slice(1)}`;

/** The spec's required message: the capitalised field name plus ' is required'. */
export const requiredMessage = (field: ShippingField) => `${capitalised(field)} is required`;

/** Phone numbers: exactly 10 digits once spaces, dashes and a +91 prefix are set aside. */
export function normalisePhone(raw: string): string | null {
  const compact = raw.replace(/[\s-]/g, "").replace(/^(\+91|0091)/, "");
  return /^\d{10}$/.test(compact) ? compact : null;
}

const text = z.preprocess((v) => (v === undefined || v === null ? "" : typeof v === "number" ? String(v) : v), z.string({ error: "Must be text" }));

export const PAYMENT_METHODS = ["cod", "online"] as const;

export const CheckoutSchema = z
  .object({
    name: text,
    address: text,
    city: text,
    state: text,
    pincode: text,
    phone: text,
    email: text,
    paymentMethod: z.preprocess((v) => (v === undefined || v === null || v === "" ? "cod" : v), z.enum(PAYMENT_METHODS, { error: CHECKOUT_MESSAGES.paymentMethod })),
  })
  .superRefine((v, ctx) => {
    for (const field of SHIPPING_FIELDS) {
      const value = v[field].trim();
      if (!value) {
        ctx.addIssue({ code: "custom", path: [field], message: requiredMessage(field) });
        continue;
      }
      if (value.length > SHIPPING_MAX[field] && field !== "phone" && field !== "pincode") {
        ctx.addIssue({ code: "custom", path: [field], message: `${capitalised(field)} must be at most ${SHIPPING_MAX[field]} characters` });
      }
    }
    if (v.phone.trim() && !normalisePhone(v.phone)) ctx.addIssue({ code: "custom", path: ["phone"], message: CHECKOUT_MESSAGES.phone });
    if (v.email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.email.trim())) {
      ctx.addIssue({ code: "custom", path: ["email"], message: CHECKOUT_MESSAGES.email });
    }
    if (v.pincode.trim() && !/^[1-9]\d{5}$/.test(v.pincode.replace(/\s/g, ""))) {
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
  razorpay_order_id: z.string({ error: "razorpay_order_id is required" }).trim().min(1, "razorpay_order_id is required").max(64, "razorpay_order_id is too long"),
  razorpay_payment_id: z.string({ error: "razorpay_payment_id is required" }).trim().min(1, "razorpay_payment_id is required").max(64, "razorpay_payment_id is too long"),
  razorpay_signature: z.string({ error: "razorpay_signature is required" }).trim().min(1, "razorpay_signature is required").max(256, "razorpay_signature is too long"),
});
export type PaymentProof = z.output<typeof PaymentProofSchema>;
