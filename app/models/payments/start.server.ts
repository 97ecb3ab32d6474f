// Starting an online payment: a payment order for the total of the customer's cart, computed here,
// holding the cart's units and its coupon's use while the customer pays (ADR 0012, 0019).
import type { Db } from "~/lib/db.server";
import { db as defaultDb, dbNow, nowIso } from "~/lib/db.server";
import { AppError, isAppError } from "~/lib/errors.server";
import { countStockHold } from "~/lib/metrics.server";
import { createGatewayOrder, paymentMode, publicKeyId } from "~/lib/payments.server";
import { LIMITS, rateLimitUser } from "~/lib/rate-limit.server";
import type { ShippingAddress } from "~/utils/checkout";
import { formatPrice } from "~/utils/money";
import { discountedTotals } from "~/utils/pricing";
import { discountForOrder, holdCouponUse, snapshotJson } from "~/models/coupons/uses.server";
import { checkOrderDelivery } from "~/models/delivery/quote.server";
import { assertUnpaidAllowed, CART_CHANGED, orderableLines } from "~/models/orders/orderable.server";
import { holdUnits, releaseForCustomer, reservationExpiry } from "~/models/reservations.server";

/** What one online payment may be: Razorpay's usual ceiling per payment, well inside the paise column. */
export const MAX_ONLINE_PAYMENT = 500000;

/**
 * The customer's cart priced as placeOrder prices it (its coupon checked again), refused as
 * placeOrder would refuse it: empty, short of stock, or a code that no longer applies. `cart` is the
 * locked row inside a transaction; else it is read.
 */
async function pricedCart(db: Db, userId: number, locked?: { id: string | null; couponCode: string | null }) {
  const cart = locked ?? (await db.selectFrom("carts").select(["id", "couponCode"]).where("userId", "=", userId).executeTakeFirst());
  const lines = await orderableLines(db, cart?.id ?? null, { userId, lock: locked !== undefined });
  const discount = await discountForOrder(db, { code: cart?.couponCode ?? null, snapshot: null, lines, userId });
  return { lines, discount, total: discountedTotals(lines, discount?.amount ?? 0).total };
}

export interface NewPaymentOrder {
  id: string;
  amount: number;
  currency: "INR";
  key: string | null;
  mode: "razorpay" | "offline";
  /** until when the cart's units are held for this payment (ADR 0012); null when it holds none (the account's day of holds is spent) */
  reservedUntil: string | null;
}

/**
 * A payment order for the total of the customer's cart, computed here (a client's amount is
 * never used). `shipping` is kept with it when the checkout page made it, so the order can be
 * placed from the webhook alone. It holds the cart's units for RESERVATION_MINUTES: the payment
 * order and its holds are written in one transaction, once the cart and its products are locked
 * and the cart is found still what was priced and still available to this customer (stock less
 * what others hold); the customer's older holds end (a retry never holds twice). The gateway's
 * order is made before, outside the transaction (Razorpay is a network call); one the shop then
 * refuses is never paid.
 */
export async function createPaymentOrder(
  userId: number,
  shipping: ShippingAddress | null,
  expectedTotal?: number,
  db: Db = defaultDb,
): Promise<NewPaymentOrder> {
  // The checkout page's address is refused before anything is made for it (placeOrder checks it again).
  if (shipping) await checkOrderDelivery(db, shipping, "online", []);
  const { total } = await pricedCart(db, userId);
  if (expectedTotal !== undefined && expectedTotal !== total) throw new AppError(409, CART_CHANGED, { code: "STALE_TOTAL" });
  if (total > MAX_ONLINE_PAYMENT) {
    const cap = formatPrice(MAX_ONLINE_PAYMENT);
    throw new AppError(409, `Online payments are limited to ${cap} per order. Please choose Cash on Delivery or split the order.`);
  }
  const amountPaise = total * 100;
  // Past the day's holds the payment order holds nothing (ADR 0012): paying still works.
  const holds = await rateLimitUser(LIMITS.stockHoldDay, userId).then(
    () => true,
    (error: unknown) => {
      if (isAppError(error, "RATE_LIMITED")) return false;
      throw error;
    },
  );
  const id = await createGatewayOrder(amountPaise, `u${userId}-${Date.now()}`);
  const reservedUntil = await db.transaction().execute(async (trx) => {
    const at = new Date();
    const now = nowIso(at);
    // The cart row first, as placeOrder and every cart change take it, then its products.
    const cart = await trx
      .updateTable("carts")
      .set({ updatedAt: now })
      .where("userId", "=", userId)
      .returning(["id", "couponCode"])
      .executeTakeFirst();
    // The amount includes the coupon's discount; the payment order keeps the rule it was priced with.
    const priced = await pricedCart(trx, userId, cart ?? { id: null, couponCode: null });
    const { lines } = priced;
    if (priced.total !== total) throw new AppError(409, CART_CHANGED, { code: "STALE_TOTAL" });
    // A test payment takes no money: it may hold (and then order) only what cash on delivery may.
    if (paymentMode() === "offline") await assertUnpaidAllowed(trx, userId, lines, total, "test");
    await trx
      .insertInto("paymentOrders")
      .values({
        id,
        userId,
        amountPaise,
        currency: "INR",
        status: "created",
        paymentId: null,
        checkout: shipping ? JSON.stringify({ shipping }) : null,
        failure: null,
        coupon: snapshotJson(priced.discount),
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    // The holds' clock (ADR 0019): the database's on PostgreSQL, read now that the products are locked.
    const expiresAt = reservationExpiry(new Date(await dbNow(trx)));
    // Its coupon's use is held as long as its units (ADR 0019): refused when a limit has none left.
    if (priced.discount) await holdCouponUse(trx, { paymentOrderId: id, couponId: priced.discount.couponId, userId, expiresAt, now });
    if (!holds) {
      // Holding nothing now: the customer's older holds end too, as a newer hold would end them.
      await releaseForCustomer(trx, userId);
      return null;
    }
    await holdUnits(trx, { paymentOrderId: id, userId, lines, expiresAt, now });
    return expiresAt;
  });
  if (reservedUntil) countStockHold();
  return { id, amount: amountPaise, currency: "INR", key: publicKeyId(), mode: paymentMode(), reservedUntil };
}

/**
 * POST /rzp/create-order: one try against the customer's payment-order limit, then a payment
 * order for their cart's total (no shipping kept: the API sends it with the order).
 */
export async function startPayment(userId: number, db: Db = defaultDb) {
  await rateLimitUser(LIMITS.paymentOrder, userId);
  return createPaymentOrder(userId, null, undefined, db);
}
