// Stock held while a customer pays (docs/decisions/0012): creating a payment order holds its
// cart's units for RESERVATION_MINUTES. What a customer may have of a product is its stock on hand
// less what other customers hold now (`availableUnits`, the one rule), and what falls short is said
// in one wording (`shortage`); cart adds, orders (cash or online) and new payment orders all read
// them. A hold ends when its payment fails, when it becomes an order (placeOrder deletes it with
// the stock it takes), when the same customer makes a newer payment order, or when it expires: an
// expired row simply stops counting, and housekeeping deletes it. "Now" is the database's clock on
// PostgreSQL (db.server's dbNow and dbNowValue, read under the locks), so servers whose clocks
// differ agree on which holds are live.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, dbNowFrom, dbNowValue, isPostgres, nowIso } from "~/lib/db.server";
import { preparedRead } from "~/lib/prepared-read.server";
import { env } from "~/lib/env.server";
import { AppError } from "~/lib/errors.server";
import { COD_LIMITS } from "~/utils/checkout";

/** When a hold made at `now` (dbNow's, read under the locks) ends. */
export function reservationExpiry(now = new Date()): string {
  return nowIso(new Date(now.getTime() + env.RESERVATION_MINUTES * 60 * 1000));
}

/** The rule: units of a product a customer may have = stock on hand less what others hold now, never below 0. */
export function availableUnits(stock: number, heldByOthers: number): number {
  return Math.max(0, stock - heldByOthers);
}

/**
 * What a stock check reads of a product: its title, the units the customer may have (`stock`: the
 * stock on hand less what others hold, availableUnits) and, when it is known, how many units others
 * hold while they pay (`held`).
 */
export interface StockCheck {
  title: string;
  stock: number;
  quantity: number;
  held?: number;
}

/**
 * What stops `quantity` units of a product from being had, in words; null when nothing does. The
 * one wording of a stock shortage: the cart says it as it is, an order (`"ordering"`) adds what
 * to do about it in the cart.
 */
export function shortage(line: StockCheck, when: "adding" | "ordering" = "adding"): string | null {
  const ordering = when === "ordering";
  if (line.stock <= 0 && (line.held ?? 0) > 0) {
    const advice = ordering ? "remove it from your cart, or try again in a few minutes" : "try again in a few minutes";
    return `${line.title} is held for customers who are paying for it now. Please ${advice}.`;
  }
  if (line.stock <= 0) return `${line.title} is out of stock${ordering ? ". Please remove it from your cart." : ""}`;
  if (line.quantity > line.stock) {
    return `Only ${line.stock} of ${line.title} left in stock${ordering ? ". Please lower the quantity in your cart." : ""}`;
  }
  return null;
}

/** Refuse (409) a line the stock does not cover, in shortage's words. */
export function assertStock(line: StockCheck, when: "adding" | "ordering" = "adding"): void {
  const problem = shortage(line, when);
  if (problem) throw new AppError(409, problem, { code: "STOCK_SHORTAGE" });
}

/**
 * Units of these variants held now by live reservations of customers other than `userId` (a guest,
 * `null`: everyone's), by variant id; a variant nobody holds is absent. Now is the database's clock
 * as the query runs (in placeOrder and createPaymentOrder, after the products' locks).
 */
export async function heldByOthers(db: Db, variantIds: number[], userId: number | null): Promise<Map<number, number>> {
  if (variantIds.length === 0) return new Map();
  // Every product page asks this: a prepared read.
  const args = { variantIds, now: nowIso(), userId: userId ?? 0 };
  const rows = await preparedRead(db, "heldByOthers", userId === null ? "everyone" : "others", args, (a) => {
    const query = db
      .selectFrom("stockReservations")
      .select(["variantId", (eb) => eb.fn.sum<number | string>("quantity").as("units")])
      .where("variantId", "in", a.variantIds)
      .where("expiresAt", ">", dbNowFrom(db, a.now))
      .groupBy("variantId");
    return userId === null ? query : query.where("userId", "!=", a.userId);
  });
  return new Map(rows.map((r) => [r.variantId, Number(r.units)]));
}

export interface Availability {
  /** units the customer may have now (availableUnits) */
  available: number;
  /** units other customers hold now */
  held: number;
}

/** Each line with what the customer (`userId`; null, a guest) may have of its variant now. */
export async function withAvailability<T extends { variantId: number; stock: number }>(
  db: Db,
  lines: T[],
  userId: number | null,
): Promise<(T & Availability)[]> {
  const held = await heldByOthers(
    db,
    lines.map((l) => l.variantId),
    userId,
  );
  return lines.map((line) => {
    const units = held.get(line.variantId) ?? 0;
    return { ...line, available: availableUnits(line.stock, units), held: units };
  });
}

/** What one variant offers a customer now. */
export async function availabilityOf(db: Db, variant: { id: number; stock: number }, userId: number | null): Promise<Availability> {
  const [line] = await withAvailability(db, [{ variantId: variant.id, stock: variant.stock }], userId);
  return { available: line!.available, held: line!.held };
}

/**
 * Inside a transaction, before reading a cart's products and what others hold of them: on
 * PostgreSQL, lock the products' rows (FOR UPDATE, in id order, so two customers never wait on
 * each other's rows the other way round). Whoever holds or takes units of them next waits until
 * this transaction ends, and then reads its rows. The caller has locked the cart row, so its
 * lines stay as they are. SQLite runs one write transaction at a time already.
 */
export async function lockCartItems(trx: Db, cartId: string): Promise<void> {
  if (!isPostgres(trx)) return;
  await trx
    .selectFrom("items")
    .select("id")
    .where("id", "in", (eb) => eb.selectFrom("cartLines").select("itemId").where("cartId", "=", cartId))
    .orderBy("id")
    .forUpdate()
    .execute();
}

/**
 * The most units of one product one payment order holds: cash on delivery's figure. A larger
 * order is still placed if the stock allows when it is paid; one account cannot take a
 * product's whole stock out of sale without paying for it.
 */
export const MAX_HELD_PER_PIECE = COD_LIMITS.unitsPerPiece;

/**
 * Hold a payment order's units (at most MAX_HELD_PER_PIECE of each product), inside its
 * transaction, once the caller locked the products and checked them against availableUnits. The
 * customer's older holds end first: a new payment order for the same cart (a retry, a second tab)
 * never holds the units twice.
 */
export async function holdUnits(
  trx: Db,
  hold: {
    paymentOrderId: string;
    userId: number;
    lines: { itemId: number; variantId: number; quantity: number }[];
    expiresAt: string;
    now: string;
  },
): Promise<void> {
  await releaseForCustomer(trx, hold.userId);
  await trx
    .insertInto("stockReservations")
    .values(
      hold.lines.map((line) => ({
        paymentOrderId: hold.paymentOrderId,
        itemId: line.itemId,
        variantId: line.variantId,
        userId: hold.userId,
        quantity: Math.min(line.quantity, MAX_HELD_PER_PIECE),
        expiresAt: hold.expiresAt,
        createdAt: hold.now,
      })),
    )
    .execute();
}

/**
 * End what a payment order holds (its payment failed, or it is owed a refund): its units and its
 * coupon's use (coupons/uses.server); with `userId`, only when it is that customer's. Answers how many
 * products it held.
 */
export async function releaseForPayment(db: Db, paymentOrderId: string, userId?: number): Promise<number> {
  let query = db.deleteFrom("stockReservations").where("paymentOrderId", "=", paymentOrderId);
  let coupon = db.deleteFrom("couponHolds").where("paymentOrderId", "=", paymentOrderId);
  if (userId !== undefined) {
    query = query.where("userId", "=", userId);
    coupon = coupon.where("userId", "=", userId);
  }
  const result = await query.executeTakeFirst();
  await coupon.execute();
  return Number(result.numDeletedRows);
}

/** End everything a customer holds: their cart became an order, or a newer payment order holds it. */
export async function releaseForCustomer(db: Db, userId: number): Promise<void> {
  await db.deleteFrom("stockReservations").where("userId", "=", userId).execute();
}

/** The payment page: until when a payment order holds its units, or null (none: released, expired, or never held). */
export async function heldUntil(paymentOrderId: string, db: Db = defaultDb): Promise<string | null> {
  const row = await db
    .selectFrom("stockReservations")
    .select((eb) => eb.fn.min("expiresAt").as("expiresAt"))
    .where("paymentOrderId", "=", paymentOrderId)
    .where("expiresAt", ">", dbNowValue(db))
    .executeTakeFirst();
  return row?.expiresAt ?? null;
}

/** The product page: what a visitor (`userId`; null, a guest) may have of a variant now. */
export async function variantAvailability(
  variant: { id: number; stock: number },
  userId: number | null,
  db: Db = defaultDb,
): Promise<number> {
  return (await availabilityOf(db, variant, userId)).available;
}
