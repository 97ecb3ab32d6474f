// Delivery by pincode (ADR 0017): the pincode directory, the zone that decides for a pincode (the
// staff's delivery zones, zones.server.ts: the most specific wins, a pincode range, then a
// district, then a state, then the default zone), the answer for a pincode (API, product page),
// and the checks an order's address must pass.
import type { Selectable } from "kysely";
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import type { DeliveryZonesTable, PaymentMethod } from "~/lib/db-schema";
import { AppError } from "~/lib/errors.server";
import type { ShippingAddress } from "~/utils/checkout";
import type { DeliveryDays } from "~/utils/delivery-dates";
import { dateAtNoonInIndia, deliveryWindow } from "~/utils/delivery-dates";
import type { DeliveryQuote } from "~/utils/delivery";
import { DELIVERY_MESSAGES, deliveryDaysFor } from "~/utils/delivery";
import { isIntraState } from "~/utils/invoice";

export interface PincodeEntry {
  pincode: number;
  city: string;
  district: string;
  state: string;
  otherState: string | null;
}

/** A pincode of the directory, or null. */
export async function findPincode(pincode: string | number, db: Db = defaultDb): Promise<PincodeEntry | null> {
  const n = Number(pincode);
  if (!Number.isInteger(n) || n < 100000 || n > 999999) return null;
  const row = await db.selectFrom("pincodes").selectAll().where("pincode", "=", n).executeTakeFirst();
  return row ?? null;
}

export type ZoneRow = Selectable<DeliveryZonesTable>;

/** How specific a zone is: the more specific decides. */
export const SPECIFICITY: Record<ZoneRow["kind"], number> = { range: 3, district: 2, state: 1, default: 0 };

/**
 * The zone that decides for a pincode: the most specific that covers it (a range, then its
 * district, then its state, then the default); among ranges the narrowest, then the newest.
 */
export function mostSpecific(zones: readonly ZoneRow[]): ZoneRow | null {
  let best: ZoneRow | null = null;
  const span = (z: ZoneRow) => (z.pincodeTo ?? 0) - (z.pincodeFrom ?? 0);
  for (const zone of zones) {
    if (!best) best = zone;
    else {
      const bySpecificity = SPECIFICITY[zone.kind] - SPECIFICITY[best.kind];
      const byRange = zone.kind === "range" && best.kind === "range" ? span(best) - span(zone) : 0;
      if (bySpecificity > 0 || (bySpecificity === 0 && (byRange > 0 || (byRange === 0 && zone.id > best.id)))) best = zone;
    }
  }
  return best;
}

/** The zone of a pincode (null only when the shop has no default zone: nothing is served). */
export async function zoneFor(entry: PincodeEntry, db: Db = defaultDb): Promise<ZoneRow | null> {
  const zones = await db
    .selectFrom("deliveryZones")
    .selectAll()
    .where((eb) =>
      eb.or([
        eb("kind", "=", "default"),
        eb.and([eb("kind", "=", "state"), eb("state", "=", entry.state)]),
        eb.and([eb("kind", "=", "district"), eb("state", "=", entry.state), eb("district", "=", entry.district)]),
        eb.and([eb("kind", "=", "range"), eb("pincodeFrom", "<=", entry.pincode), eb("pincodeTo", ">=", entry.pincode)]),
      ]),
    )
    .execute();
  return mostSpecific(zones);
}

/** What a zone promises for these pieces: served or not, the days (made to order: at least 14-21), cash on delivery. */
function promise(zone: ZoneRow | null, madeToOrder: boolean): { served: boolean; days: DeliveryDays | null; cod: boolean } {
  if (!zone || !zone.served) return { served: false, days: null, cod: false };
  return { served: true, days: deliveryDaysFor({ min: zone.minDays, max: zone.maxDays }, madeToOrder), cod: zone.cod === 1 };
}

/** Whether any of these products is made to order. */
async function anyMadeToOrder(itemIds: readonly number[], db: Db): Promise<boolean> {
  if (itemIds.length === 0) return false;
  const row = await db.selectFrom("items").select("id").where("id", "in", itemIds).where("madeToOrder", "=", 1).executeTakeFirst();
  return row !== undefined;
}

/**
 * GET /api/delivery and the product page's Check delivery: where the pincode is, whether the
 * shop delivers there, in how many business days and by when (from today in India), and whether
 * cash on delivery is possible. `itemId` (a product) counts its making time when it is made to
 * order. 404 for a pincode that does not exist, or a product that does not.
 */
export async function deliveryQuote(pincode: string, itemId: number | null, now = new Date(), db: Db = defaultDb): Promise<DeliveryQuote> {
  const entry = await findPincode(pincode, db);
  if (!entry) throw new AppError(404, DELIVERY_MESSAGES.unknown(pincode), { fieldErrors: { pincode: DELIVERY_MESSAGES.unknown(pincode) } });
  let madeToOrder = false;
  if (itemId !== null) {
    const item = await db.selectFrom("items").select("madeToOrder").where("id", "=", itemId).executeTakeFirst();
    if (!item) throw new AppError(404, "Product not found", { fieldErrors: { itemId: "Product not found" } });
    madeToOrder = item.madeToOrder === 1;
  }
  const { served, days, cod } = promise(await zoneFor(entry, db), madeToOrder);
  return {
    pincode: String(entry.pincode),
    serviceable: served,
    city: entry.city,
    district: entry.district,
    state: entry.state,
    days,
    deliveryBy: days ? deliveryWindow(now, days).latest : null,
    cod,
  };
}

/** What an order is promised, kept on its row. */
export interface OrderDelivery {
  deliveryMinDays: number;
  deliveryMaxDays: number;
  /** the latest date, noon in India (ISO) */
  estimatedDelivery: string;
}

/**
 * The checks an order's address must pass, and what the order is promised (placeOrder, in its
 * transaction; a payment order the checkout page starts, before it). Refused with a 400 and the
 * message beside its field: a pincode that does not exist, a state that is not the pincode's (a
 * border pincode has two), a pincode the shop does not deliver to, cash on delivery where it is
 * not offered. The state decides the invoice's CGST/SGST or IGST, so it must be the pincode's.
 */
export async function checkOrderDelivery(
  db: Db,
  shipping: Pick<ShippingAddress, "pincode" | "state">,
  paymentMethod: PaymentMethod,
  itemIds: readonly number[],
  now = new Date(),
): Promise<OrderDelivery> {
  const refuse = (field: string, message: string): never => {
    throw new AppError(400, message, { fieldErrors: { [field]: message } });
  };
  const entry = await findPincode(shipping.pincode, db);
  if (!entry) return refuse("pincode", DELIVERY_MESSAGES.unknown(shipping.pincode));
  const states = [entry.state, entry.otherState].filter((s): s is string => s !== null);
  if (!states.some((s) => isIntraState(s, shipping.state))) {
    return refuse("state", DELIVERY_MESSAGES.wrongState(shipping.pincode, states.join(" or ")));
  }
  const { served, days, cod } = promise(await zoneFor(entry, db), await anyMadeToOrder(itemIds, db));
  if (!served || !days) return refuse("pincode", `${DELIVERY_MESSAGES.notServed(shipping.pincode)}.`);
  if (paymentMethod === "cod" && !cod) return refuse("paymentMethod", DELIVERY_MESSAGES.noCod(shipping.pincode));
  return { deliveryMinDays: days.min, deliveryMaxDays: days.max, estimatedDelivery: dateAtNoonInIndia(deliveryWindow(now, days).latest) };
}
