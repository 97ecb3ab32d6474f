// Delivery by pincode, as the pages and the API show it (ADR 0017): the answer's shape, the
// messages, the zone form's field rules and the made-to-order days. Zod-free, so the product
// page's and the checkout's browser code may import it; the schemas are in delivery-schemas.ts.
import type { FieldRule } from "./forms";
import type { DeliveryDays, IsoDate } from "./delivery-dates";
import { INDIAN_STATES } from "./checkout-fields";

export type { DeliveryDays };

/** A pincode: six digits, the first not 0 (as the checkout has it). */
export const PINCODE_PATTERN = "[1-9][0-9]{5}";
export const isPincode = (value: string) => /^[1-9]\d{5}$/.test(value);

/** What GET /api/delivery answers, and the product page's Check delivery shows. */
export interface DeliveryQuote {
  pincode: string;
  serviceable: boolean;
  city: string;
  district: string;
  state: string;
  /** business days; null where the shop does not deliver */
  days: DeliveryDays | null;
  /** the latest delivery date (India's calendar), "2026-12-04"; null where the shop does not deliver */
  deliveryBy: IsoDate | null;
  /** cash on delivery is possible there */
  cod: boolean;
}

/**
 * The shipping policy's 'Custom-made furniture: 14-21 business days, as each piece is made to
 * order': a made-to-order piece takes at least this long, and never less than its zone.
 */
export const MADE_TO_ORDER_DAYS: DeliveryDays = { min: 14, max: 21 };

/** The days a delivery takes: its zone's, or at least MADE_TO_ORDER_DAYS when a piece is made to order. */
export function deliveryDaysFor(zone: DeliveryDays, madeToOrder: boolean): DeliveryDays {
  if (!madeToOrder) return { min: zone.min, max: zone.max };
  return { min: Math.max(zone.min, MADE_TO_ORDER_DAYS.min), max: Math.max(zone.max, MADE_TO_ORDER_DAYS.max) };
}

export const DELIVERY_MESSAGES = {
  pincode: "Please enter a valid 6-digit pincode",
  unknown: (pincode: string) => `We could not find pincode ${pincode}. Please check it.`,
  notServed: (pincode: string) => `We do not deliver to ${pincode} yet`,
  wrongState: (pincode: string, state: string) => `Pincode ${pincode} is in ${state}. Please check the state or the pincode.`,
  noCod: (pincode: string) => `Cash on delivery is not available for pincode ${pincode}. Please pay online.`,
} as const;

/** The longest delivery a zone may promise, in business days. */
export const MAX_ZONE_DAYS = 60;
export const ZONE_KINDS = ["state", "district", "range"] as const;
export type ZoneKind = (typeof ZONE_KINDS)[number];
export const ZONE_KIND_LABELS: Record<ZoneKind | "default", string> = {
  default: "Default",
  state: "State",
  district: "District",
  range: "Pincode range",
};

/** The zone form's fields (admin /admin/delivery). */
export const ZONE_FIELDS = {
  kind: { required: true },
  state: { maxLength: 80 },
  district: { maxLength: 80 },
  pincodeFrom: { maxLength: 6, pattern: PINCODE_PATTERN },
  pincodeTo: { maxLength: 6, pattern: PINCODE_PATTERN },
  minDays: { required: true, type: "number" },
  maxDays: { required: true, type: "number" },
  label: { required: true, maxLength: 60 },
} as const satisfies Record<string, FieldRule>;

export { INDIAN_STATES };

/** A zone as the staff see and edit it. */
export interface DeliveryZone {
  id: number;
  kind: ZoneKind | "default";
  state: string | null;
  district: string | null;
  pincodeFrom: number | null;
  pincodeTo: number | null;
  days: DeliveryDays;
  cod: boolean;
  served: boolean;
  label: string;
}

/** Where a zone applies, in words: 'Gujarat', 'Ahmedabad, Gujarat', '380001-380060', 'Everywhere else'. */
export function zoneScope(zone: Pick<DeliveryZone, "kind" | "state" | "district" | "pincodeFrom" | "pincodeTo">): string {
  if (zone.kind === "state") return zone.state ?? "";
  if (zone.kind === "district") return `${zone.district ?? ""}, ${zone.state ?? ""}`;
  if (zone.kind === "range") return zone.pincodeFrom === zone.pincodeTo ? `${zone.pincodeFrom}` : `${zone.pincodeFrom}-${zone.pincodeTo}`;
  return "Everywhere else";
}

/** The product page's Check delivery: nothing asked yet, an answer, or a message beside the field. */
export type DeliveryCheckState =
  { pincode: null } | { pincode: string; quote: DeliveryQuote; error?: undefined } | { pincode: string; quote?: undefined; error: string };
