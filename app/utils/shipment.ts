// The shipment details the shop may record when it marks an order shipped:
// plain text only, short, so nothing a customer is shown or mailed can carry markup.
import { z } from "zod";

export const MAX_CARRIER_LENGTH = 60;
export const MAX_TRACKING_LENGTH = 40;

/** An empty field is no value. */
const blankIsNone = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

export const ShipmentSchema = z.object({
  carrier: z.preprocess(
    blankIsNone,
    z
      .string({ error: "Carrier must be text" })
      .trim()
      .max(MAX_CARRIER_LENGTH, `Carrier must be at most ${MAX_CARRIER_LENGTH} characters`)
      .regex(/^[\p{L}\p{N}][\p{L}\p{N} .,&'()/-]*$/u, "Carrier may contain only letters, digits, spaces and . , & ' ( ) / -")
      .optional(),
  ),
  trackingNumber: z.preprocess(
    blankIsNone,
    z
      .string({ error: "Tracking number must be text" })
      .trim()
      .max(MAX_TRACKING_LENGTH, `Tracking number must be at most ${MAX_TRACKING_LENGTH} characters`)
      .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, "Tracking number may contain only letters, digits, spaces and dashes")
      .optional(),
  ),
});

export type ShipmentInput = z.output<typeof ShipmentSchema>;
