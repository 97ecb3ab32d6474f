// The checkout form's fields: their rules (the inputs spread them with fieldProps, and
// CheckoutSchema reads them), the messages of docs/product.md, the payment methods and the
// states of India. Free of zod, so the checkout page's browser code may import it.
import { MAX_LENGTH } from "./field-lengths";
import type { FieldRule } from "./forms";

export const INDIAN_STATES = [
  "Andaman and Nicobar Islands",
  "Andhra Pradesh",
  "Arunachal Pradesh",
  "Assam",
  "Bihar",
  "Chandigarh",
  "Chhattisgarh",
  "Dadra and Nagar Haveli and Daman and Diu",
  "Delhi",
  "Goa",
  "Gujarat",
  "Haryana",
  "Himachal Pradesh",
  "Jammu and Kashmir",
  "Jharkhand",
  "Karnataka",
  "Kerala",
  "Ladakh",
  "Lakshadweep",
  "Madhya Pradesh",
  "Maharashtra",
  "Manipur",
  "Meghalaya",
  "Mizoram",
  "Nagaland",
  "Odisha",
  "Puducherry",
  "Punjab",
  "Rajasthan",
  "Sikkim",
  "Tamil Nadu",
  "Telangana",
  "Tripura",
  "Uttar Pradesh",
  "Uttarakhand",
  "West Bengal",
] as const;

export const SHIPPING_FIELDS = ["name", "address", "city", "state", "pincode", "phone", "email"] as const;
export type ShippingField = (typeof SHIPPING_FIELDS)[number];

/**
 * Every shipping field is required. Phone and pincode are checked by their formats (10 digits,
 * 6 digits, spaces aside) rather than by length; their maxLength only keeps typing short.
 */
export const SHIPPING_RULES = {
  name: { required: true, maxLength: MAX_LENGTH.name, type: "text" },
  address: { required: true, maxLength: 300, type: "text" },
  city: { required: true, maxLength: 80, type: "text" },
  state: { required: true, maxLength: 80, type: "text" },
  pincode: { required: true, maxLength: 6, type: "text" },
  phone: { required: true, maxLength: 16, type: "tel" },
  email: { required: true, maxLength: MAX_LENGTH.email, type: "email" },
} as const satisfies Record<ShippingField, FieldRule>;

/** The fields whose length the schema checks (the others are checked by their format). */
export const LENGTH_CHECKED: readonly ShippingField[] = ["name", "address", "city", "state", "email"];

export const SHIPPING_MAX: Record<ShippingField, number> = Object.fromEntries(
  SHIPPING_FIELDS.map((field) => [field, SHIPPING_RULES[field].maxLength]),
) as Record<ShippingField, number>;

export const CHECKOUT_MESSAGES = {
  phone: "Please enter a valid 10-digit phone number",
  email: "Please enter a valid email address",
  pincode: "Please enter a valid 6-digit pincode",
  paymentMethod: "Please choose a payment method",
} as const;

export const capitalised = (field: string) => `${field[0]!.toUpperCase()}${field.slice(1)}`;

/** The required message: the capitalised field name plus ' is required'. */
export const requiredMessage = (field: ShippingField) => `${capitalised(field)} is required`;

export const PAYMENT_METHODS = ["cod", "online"] as const;
