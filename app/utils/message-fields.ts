// The contact form's and the newsletter's field rules: the inputs spread them (fieldProps) and
// ContactSchema / NewsletterSchema read them, so an attribute and the server's check cannot
// drift apart. Free of zod, so the pages' browser code may import it.
import { MAX_LENGTH } from "./field-lengths";
import type { FieldRule } from "./forms";

export const CONTACT_SUBJECTS = ["Product Inquiry", "Order Status", "Return Request", "Feedback", "Other"] as const;

/** The contact form's five fields, in the form's order. */
export const CONTACT_FIELDS = {
  name: { required: true, maxLength: MAX_LENGTH.name, type: "text" },
  email: { required: true, maxLength: MAX_LENGTH.email, type: "email" },
  phone: { maxLength: MAX_LENGTH.phone, type: "tel" },
  /** a select of CONTACT_SUBJECTS */
  subject: { required: true },
  /** a textarea */
  message: { required: true, maxLength: MAX_LENGTH.message },
} satisfies Record<string, FieldRule>;

export type ContactField = keyof typeof CONTACT_FIELDS;
export const CONTACT_FIELD_NAMES = Object.keys(CONTACT_FIELDS) as ContactField[];

export const NEWSLETTER_FIELDS = {
  email: { required: true, maxLength: MAX_LENGTH.email, type: "email" },
} satisfies Record<string, FieldRule>;
