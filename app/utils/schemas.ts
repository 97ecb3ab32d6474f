// Field schemas shared by forms and API routes.
import { z } from "zod";
import { MAX_QUANTITY, MIN_QUANTITY } from "./pricing";

/** Field lengths: the schemas enforce them, the forms print them as maxLength. */
export const MAX_LENGTH = { name: 100, email: 254, phone: 20, message: 5000 } as const;

/** A whole number from a form field ("12") or JSON (12); booleans, arrays and "1e3" are refused. */
const wholeNumber = (message: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && /^\s*\d{1,10}\s*$/.test(v) ? Number(v) : v),
    z.number({ error: message }).int(message),
  );

export const IdSchema = wholeNumber("A valid id is required").pipe(
  z.number().positive("A valid id is required").max(2_147_483_647, "A valid id is required"),
);

const QUANTITY_MESSAGE = `Quantity must be a whole number from ${MIN_QUANTITY} to ${MAX_QUANTITY}`;
export const QuantitySchema = wholeNumber(QUANTITY_MESSAGE).pipe(
  z.number().min(MIN_QUANTITY, QUANTITY_MESSAGE).max(MAX_QUANTITY, QUANTITY_MESSAGE),
);

export const EmailSchema = z
  .string({ error: "Please enter a valid email address" })
  .trim()
  .toLowerCase()
  .max(MAX_LENGTH.email, "That email address is too long")
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "Please enter a valid email address");

export const NewsletterSchema = z.object({ email: EmailSchema });

export const CONTACT_SUBJECTS = ["Product Inquiry", "Order Status", "Return Request", "Feedback", "Other"] as const;

const required = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

export const ContactSchema = z.object({
  name: required("Name", MAX_LENGTH.name),
  email: z.string({ error: "Email is required" }).trim().min(1, "Email is required").pipe(EmailSchema),
  phone: z
    .string()
    .trim()
    .max(MAX_LENGTH.phone, `Phone must be at most ${MAX_LENGTH.phone} characters`)
    .regex(/^[+\d][\d\s-]{5,}$|^$/, "Please enter a valid phone number")
    .optional()
    .transform((v) => (v ? v : undefined)),
  subject: z.enum(CONTACT_SUBJECTS, { error: "Please choose a subject" }),
  message: required("Message", MAX_LENGTH.message),
});
export type ContactInput = z.infer<typeof ContactSchema>;

export const CartAddSchema = z.object({ itemId: IdSchema, quantity: QuantitySchema.default(1) });
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
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "That slug is not valid");;
