// Field schemas shared by forms and API routes. Browser code takes the forms' constraints
// from the zod-free field rules (message-fields.ts, account-fields.ts), which these read.
import { z } from "zod";
import { EMAIL_PATTERN, MAX_LENGTH } from "./field-lengths";
import type { FieldRule } from "./forms";
import { CONTACT_FIELDS, CONTACT_SUBJECTS, NEWSLETTER_FIELDS } from "./message-fields";
import { MAX_QUANTITY, MIN_QUANTITY } from "./pricing";

export { CONTACT_SUBJECTS, MAX_LENGTH };

/** A whole number from a form field ("12") or JSON (12); booleans, arrays and "1e3" are refused. */
const wholeNumber = (message: string) =>
  z.preprocess((v) => (typeof v === "string" && /^\s*\d{1,10}\s*$/.test(v) ? Number(v) : v), z.number({ error: message }).int(message));

export const IdSchema = wholeNumber("A valid id is required").pipe(
  z.number().positive("A valid id is required").max(2_147_483_647, "A valid id is required"),
);

const QUANTITY_MESSAGE = `Quantity must be a whole number from ${MIN_QUANTITY} to ${MAX_QUANTITY}`;
export const QuantitySchema = wholeNumber(QUANTITY_MESSAGE).pipe(
  z.number().min(MIN_QUANTITY, QUANTITY_MESSAGE).max(MAX_QUANTITY, QUANTITY_MESSAGE),
);

/** An email address of at most `max` characters, trimmed and lower-cased. */
const email = (max: number) =>
  z
    .string({ error: "Please enter a valid email address" })
    .trim()
    .toLowerCase()
    // abort: a value already too long is not also matched against the pattern.
    .max(max, { message: "That email address is too long", abort: true })
    .regex(EMAIL_PATTERN, "Please enter a valid email address");

export const EmailSchema = email(MAX_LENGTH.email);

export const NewsletterSchema = z.object({ email: email(NEWSLETTER_FIELDS.email.maxLength) });

/** A text field by its rule: trimmed, not empty when required, at most maxLength. */
function text(label: string, rule: FieldRule) {
  let schema = z.string({ error: `${label} is required` }).trim();
  if (rule.required) schema = schema.min(1, `${label} is required`);
  if (rule.maxLength !== undefined) schema = schema.max(rule.maxLength, `${label} must be at most ${rule.maxLength} characters`);
  return schema;
}

const C = CONTACT_FIELDS;
export const ContactSchema = z.object({
  name: text("Name", C.name),
  email: text("Email", { required: C.email.required }).pipe(email(C.email.maxLength)),
  phone: z
    .string()
    .trim()
    .max(C.phone.maxLength, `Phone must be at most ${C.phone.maxLength} characters`)
    .regex(/^[+\d][\d\s-]{5,}$|^$/, "Please enter a valid phone number")
    .optional()
    .transform((v) => (v ? v : undefined)),
  subject: z.enum(CONTACT_SUBJECTS, { error: "Please choose a subject" }),
  message: text("Message", C.message),
});
export type ContactInput = z.infer<typeof ContactSchema>;

/** A cart add: the product and, for one sold in several variants, which (a product with one needs none). */
export const CartAddSchema = z.object({ itemId: IdSchema, variantId: IdSchema.optional(), quantity: QuantitySchema.default(1) });
export const CartUpdateSchema = z.object({ id: IdSchema, quantity: QuantitySchema });

const STATUS_MESSAGE = "Status must be one of processing, shipped, delivered, cancelled";
export const OrderStatusChangeSchema = z.object({
  orderId: IdSchema,
  status: z.enum(["processing", "shipped", "delivered", "cancelled"], { error: STATUS_MESSAGE }),
});

/** A catalogue slug, checked before it reaches a query. */
export const SlugSchema = z
  .string({ error: "A slug is required" })
  .trim()
  .min(1, "A slug is required")
  .max(120, "That slug is too long")
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "That slug is not valid");

/**
 * A payment order's id (`order_` and 6-40 letters or digits: ours, or Razorpay's order id),
 * checked before it reaches a query or the gateway. Its message is the refund queue's, the one
 * form where a person picks a payment.
 */
export const PaymentOrderIdSchema = z.string({ error: "Choose a payment" }).regex(/^order_[A-Za-z0-9]{6,40}$/, "Choose a payment");
