// Field schemas shared by forms and API routes.
import { z } from "zod";
import { MAX_QUANTITY, MIN_QUANTITY } from "./pricing";

export const IdSchema = z.coerce
  .number({ error: "A valid id is required" })
  .int("A valid id is required")
  .positive("A valid id is required")
  .max(2_147_483_647, "A valid id is required");

export const QuantitySchema = z.coerce
  .number({ error: `Quantity must be a whole number from ${MIN_QUANTITY} to ${MAX_QUANTITY}` })
  .int(`Quantity must be a whole number from ${MIN_QUANTITY} to ${MAX_QUANTITY}`)
  .min(MIN_QUANTITY, `Quantity must be a whole number from ${MIN_QUANTITY} to ${MAX_QUANTITY}`)
  .max(MAX_QUANTITY, `Quantity must be a whole number from ${MIN_QUANTITY} to ${MAX_QUANTITY}`);

export const EmailSchema = z
  .string({ error: "Please enter a valid email address" })
  .trim()
  .toLowerCase()
  .max(254, "That email address is too long")
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
  name: required("Name", 100),
  email: z.string({ error: "Email is required" }).trim().min(1, "Email is required").pipe(EmailSchema),
  phone: z
    .string()
    .trim()
    .max(20, "Phone must be at most 20 characters")
    .regex(/^[+\d][\d\s-]{5,}$|^$/, "Please enter a valid phone number")
    .optional()
    .transform((v) => (v ? v : undefined)),
  subject: z.enum(CONTACT_SUBJECTS, { error: "Please choose a subject" }),
  message: required("Message", 5000),
});
export type ContactInput = z.infer<typeof ContactSchema>;

export const CartAddSchema = z.object({ itemId: IdSchema, quantity: QuantitySchema.default(1) });
export const CartUpdateSchema = z.object({ id: IdSchema, quantity: QuantitySchema });
