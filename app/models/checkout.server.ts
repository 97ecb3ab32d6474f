// Checkout: cash-on-delivery orders, online payment orders, payment verification and the
// Razorpay webhook. Pages and API routes call the verbs (checkout, payForOrder, confirmPayment,
// startPayment), which count each try against the customer's limit; the order itself is written
// by orders.server's placeOrder, and the confirmation mail goes out once it is committed.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, dbNow, isUniqueViolation, nowIso } from "~/lib/db.server";
import { AppError, isAppError, OrderExistsError } from "~/lib/errors.server";
import { z } from "zod";
import {
  capturePayment,
  createGatewayOrder,
  isValidPaymentSignature,
  isValidWebhookSignature,
  offlineGatewayPayment,
  paymentMode,
  publicKeyId,
} from "~/lib/payments.server";
import { parseWith } from "~/lib/http.server";
import type { Client } from "~/lib/rate-limit.server";
import { LIMITS, rateLimitUser } from "~/lib/rate-limit.server";
import type { Selectable } from "kysely";
import type { PaymentMethod, PaymentOrdersTable } from "~/lib/db-schema";
import type { ShippingAddress } from "~/utils/checkout";
import { PaymentProofSchema } from "~/utils/checkout";
import { formatPrice } from "~/utils/money";
import { discountedTotals } from "~/utils/pricing";
import { applyCoupon } from "~/models/coupons/apply.server";
import { discountForOrder, holdCouponUse, keepCouponHoldForPayment, snapshotJson } from "~/models/coupons/uses.server";
import type { Order } from "~/models/orders/read.server";
import type { PaymentForOrder } from "~/models/orders/place.server";
import { assertUnpaidAllowed, CART_CHANGED, orderableLines } from "~/models/orders/orderable.server";
import { getOrder } from "~/models/orders/read.server";
import { placeOrder } from "~/models/orders/place.server";
import { handleRefundWebhook } from "~/models/refunds/webhook.server";
import { inTransaction, queueRefund } from "~/models/refunds/queue.server";
import { sendRefundQuietly } from "~/models/refunds/send.server";
import { holdUnits, releaseForCustomer, releaseForPayment, reservationExpiry } from "./reservations.server";
import type { LockedPaymentOrder } from "./payment-orders.server";
import { failedMessage, lockPaymentOrder, paymentUsedFor } from "./payment-orders.server";
import { checkOrderDelivery } from "./delivery.server";

export const PAYMENT_FAILED = "Payment verification failed";
export const ANOTHER_PAYMENT = "This payment order has already been paid with another payment";
export const NOT_CAPTURED =
  "The payment gateway has not taken this payment, so nothing was ordered. If money left your account, the bank returns it on its own.";
export const PAYMENT_UNCONFIRMED = "The payment gateway could not confirm your payment just now. Please try again in a minute.";
export const COUPON_BEFORE_PAYING =
  "An online order is paid at its payment order's price: apply the coupon to the cart (POST /api/cart/coupon) before /rzp/create-order.";
/** What one online payment may be: Razorpay's usual ceiling per payment, well inside the paise column. */
export const MAX_ONLINE_PAYMENT = 500000;

export interface PaymentOrder extends Omit<Selectable<PaymentOrdersTable>, "checkout" | "coupon" | "createdAt" | "updatedAt"> {
  shipping: ShippingAddress | null;
  orderId: number | null;
}

/** The order just placed (its confirmation mail was queued in its transaction, by placeOrder). */
async function notify(orderId: number, db: Db): Promise<Order> {
  return (await getOrder(orderId, { userId: null, isAdmin: true }, db))!;
}

// ---- Place Order: the checkout page and POST /api/orders/add ----------------------------

/** What Place Order sends. */
export interface CheckoutInput {
  shipping: ShippingAddress;
  paymentMethod: PaymentMethod;
  /** the checkout form's (or the API body's) key: the same key never makes a second cash order */
  idempotencyKey?: string | null;
  /** the total the customer saw on the checkout page: a cart changed since then is refused */
  expectedTotal?: number;
  /** online, paid already (the API): Razorpay's proof comes with the order */
  proof?: PaymentProofInput;
  /** a coupon code sent with the order (the API): applied to the cart first, as the cart's box does */
  coupon?: { code: unknown; client: Client };
}

/** What Place Order leads to: the new order's confirmation, or the payment step (/pay/{id}). */
export type CheckoutResult = { next: "confirmation"; order: Order } | { next: "payment"; paymentOrderId: string };

/**
 * Place Order, for the checkout page and the API: one try against the customer's order limit,
 * then a cash-on-delivery order, an online order for a verified payment of exactly its total,
 * or (online, nothing paid yet: the checkout page) a payment order to pay on the payment page.
 */
export function checkout(
  userId: number,
  input: (CheckoutInput & { paymentMethod: "cod" }) | (CheckoutInput & { proof: PaymentProofInput }),
  db?: Db,
): Promise<CheckoutResult & { next: "confirmation" }>;
export function checkout(userId: number, input: CheckoutInput, db?: Db): Promise<CheckoutResult>;
export async function checkout(userId: number, input: CheckoutInput, db: Db = defaultDb): Promise<CheckoutResult> {
  await rateLimitUser(LIMITS.placeOrder, userId);
  if (input.coupon) {
    // An online order is paid at the price of its payment order: its coupon was applied before paying.
    if (input.paymentMethod === "online") throw new AppError(400, COUPON_BEFORE_PAYING, { couponCode: COUPON_BEFORE_PAYING });
    await applyCoupon(userId, input.coupon.code, input.coupon.client, db);
  }
  if (input.paymentMethod === "cod") {
    const order = await placeCodOrder(userId, input.shipping, input.idempotencyKey ?? null, input.expectedTotal, db);
    return { next: "confirmation", order };
  }
  if (input.proof) return { next: "confirmation", order: await placeOnlineOrder(input.proof, userId, input.shipping, db) };
  const payment = await createPaymentOrder(userId, input.shipping, input.expectedTotal, db);
  return { next: "payment", paymentOrderId: payment.id };
}

/** A cash-on-delivery order from the customer's cart; the confirmation mail follows. */
export async function placeCodOrder(
  userId: number,
  shipping: ShippingAddress,
  idempotencyKey: string | null,
  expectedTotal?: number,
  db: Db = defaultDb,
): Promise<Order> {
  const id = await placeOrder({ userId, shipping, paymentMethod: "cod", idempotencyKey, expectedTotal }, db);
  return notify(id, db);
}

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
  if (expectedTotal !== undefined && expectedTotal !== total) throw new AppError(409, CART_CHANGED, undefined, undefined, "STALE_TOTAL");
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
    if (priced.total !== total) throw new AppError(409, CART_CHANGED, undefined, undefined, "STALE_TOTAL");
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

/** A payment order of this customer's, or null. */
export async function getPaymentOrder(id: string, userId: number, db: Db = defaultDb): Promise<PaymentOrder | null> {
  const row = await db
    .selectFrom("paymentOrders")
    .select(["id", "userId", "amountPaise", "currency", "status", "paymentId", "checkout", "failure", "orderId"])
    .where("id", "=", id)
    .where("userId", "=", userId)
    .executeTakeFirst();
  if (!row) return null;
  const checkout = row.checkout ? (JSON.parse(row.checkout) as { shipping?: ShippingAddress }) : null;
  return { ...row, shipping: checkout?.shipping ?? null };
}

export interface PaymentProofInput {
  razorpay_order_id: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
}

/**
 * What recording a payment says about its order: nothing yet (verified, an order may follow),
 * that its order is being placed (any earlier refusal is cleared), or why its order was refused
 * (kept for the shop; the customer may still place it).
 */
type PaymentNews = { placed: false } | { placed: true } | { refused: string };
const VERIFIED: PaymentNews = { placed: false };

/**
 * Record a verified payment on its payment order, decided under the payment order's locked row:
 * a different payment for a payment order paid already, one marked failed, or one payment for two
 * payment orders, is refused. The row is written only when this changes it: a payment recorded
 * already stays as it is (its first refusal reason too; a refusal never touches a payment order that
 * became an order), so a retry refused again, or a second verification, writes nothing.
 */
async function recordPayment(paymentOrderId: string, paymentId: string, db: Db, news: PaymentNews = VERIFIED): Promise<void> {
  const verdict = await inTransaction(db, async (trx): Promise<"recorded" | "unchanged" | LockedPaymentOrder> => {
    const row = await lockPaymentOrder(trx, paymentOrderId);
    if (!row) throw new AppError(404, "That payment order was not found");
    if (row.status === "failed" || (row.paymentId !== null && row.paymentId !== paymentId)) return row;
    const failure =
      row.orderId !== null
        ? row.failure
        : "refused" in news
          ? (row.failure ?? news.refused.slice(0, 500))
          : news.placed
            ? null
            : row.failure;
    if (row.status === "paid" && row.paymentId === paymentId && failure === row.failure) return "unchanged";
    try {
      await trx
        .updateTable("paymentOrders")
        .set({ paymentId, status: "paid", failure, updatedAt: nowIso() })
        .where("id", "=", paymentOrderId)
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(409, "This payment has already been used");
      throw error;
    }
    return row.status === "created" ? "recorded" : "unchanged";
  });
  // Verified within its coupon hold: the use stays held for this payment until its order or refund.
  if (verdict === "recorded") await keepCouponHoldForPayment(db, paymentOrderId);
  if (typeof verdict === "string") return;
  // A second verified payment of a payment order paid by another, or failed: it is refunded (in the
  // caller's transaction that would roll back with the refusal: placePaidOrder refunds it after).
  if (!db.isTransaction && verdict.paymentId !== paymentId) await refundPaidTwice(paymentOrderId, paymentId, db);
  if (verdict.status === "failed") throw new AppError(409, failedMessage(verdict.failure), undefined, undefined, "PAYMENT_ORDER_FAILED");
  throw new AppError(409, ANOTHER_PAYMENT, undefined, undefined, "ANOTHER_PAYMENT");
}

/**
 * Check the signature of a payment (one code path for Razorpay and the offline gateway, a
 * timing-safe comparison) and that the payment order is the customer's. Nothing is written.
 */
async function checkedPaymentOrder(proof: PaymentProofInput, userId: number, db: Db): Promise<PaymentOrder> {
  if (!isValidPaymentSignature(proof.razorpay_order_id, proof.razorpay_payment_id, proof.razorpay_signature)) throw paymentFailed();
  const paymentOrder = await getPaymentOrder(proof.razorpay_order_id, userId, db);
  if (!paymentOrder) throw new AppError(404, "That payment order was not found");
  // The payment recorded already was captured when it was recorded; any other is read from the gateway now.
  if (paymentOrder.paymentId !== proof.razorpay_payment_id) {
    const payment = { paymentId: proof.razorpay_payment_id, orderId: paymentOrder.id, amountPaise: paymentOrder.amountPaise };
    const answer = await capturePayment(payment);
    if (answer.outcome === "unavailable") {
      console.warn(`payment ${payment.paymentId} of ${payment.orderId} could not be confirmed: ${answer.reason}`);
      throw new AppError(503, PAYMENT_UNCONFIRMED);
    }
    if (answer.outcome === "refused") {
      console.warn(`payment ${payment.paymentId} of ${payment.orderId} refused: ${answer.reason}`);
      throw new AppError(409, NOT_CAPTURED, undefined, undefined, "NOT_CAPTURED");
    }
  }
  return paymentOrder;
}

/** Check a payment (checkedPaymentOrder), then record it on its payment order. */
export async function verifyPayment(proof: PaymentProofInput, userId: number, db: Db = defaultDb): Promise<PaymentOrder> {
  const paymentOrder = await checkedPaymentOrder(proof, userId, db);
  await recordPayment(paymentOrder.id, proof.razorpay_payment_id, db);
  return { ...paymentOrder, paymentId: proof.razorpay_payment_id, status: "paid", failure: null };
}

const paymentFailed = () => new AppError(400, PAYMENT_FAILED, undefined, undefined, "PAYMENT_FAILED");

/**
 * POST /rzp/verify-payment: one try against the customer's verify-payment limit, then the
 * payment's check and record (verifyPayment). A bad signature is a PAYMENT_FAILED error.
 */
export async function confirmPayment(proof: PaymentProofInput, userId: number, db: Db = defaultDb): Promise<PaymentOrder> {
  await rateLimitUser(LIMITS.verifyPayment, userId);
  return verifyPayment(proof, userId, db);
}

/**
 * An online order: a verified payment of exactly the order's total pays for it, once.
 * `shipping` comes from the API's body, or else from the checkout page that made the payment order.
 */
export async function placeOnlineOrder(
  proof: PaymentProofInput,
  userId: number,
  shipping: ShippingAddress | null,
  db: Db = defaultDb,
): Promise<Order> {
  const paymentOrder = await checkedPaymentOrder(proof, userId, db);
  const payment = { paymentOrderId: paymentOrder.id, paymentId: proof.razorpay_payment_id, amountPaise: paymentOrder.amountPaise };
  const address = shipping ?? paymentOrder.shipping;
  if (!address) {
    const error = new AppError(400, "Shipping details are required");
    await recordPayment(payment.paymentOrderId, payment.paymentId, db, { refused: error.message });
    throw error;
  }
  return notify(await placePaidOrder(userId, address, payment, db), db);
}

/**
 * An online order and the record of its payment, in one transaction: a crash between the two can
 * leave neither a payment recorded without its order nor an order without its payment. When the
 * order is refused because the cart changed after paying, the payment is recorded all the same,
 * with the reason, so the customer can place it once the cart matches. When the stock no longer
 * covers it (a payment that came after its hold expired, and others took or hold the units), or its
 * coupon can no longer be counted (COUPON_LAPSED: it came after its hold on the coupon ended and the
 * code no longer applies), it can never become an order: it is recorded and marked `failed`, a
 * refund owed, in one transaction.
 */
async function placePaidOrder(userId: number, shipping: ShippingAddress, payment: PaymentForOrder, db: Db): Promise<number> {
  let recordable = false;
  try {
    return await placeOrder(
      {
        userId,
        shipping,
        paymentMethod: "online",
        payment,
        withOrder: async (trx) => {
          await recordPayment(payment.paymentOrderId, payment.paymentId, trx, { placed: true });
          recordable = true;
        },
      },
      db,
    );
  } catch (error) {
    // The order was refused after the payment could be recorded (rolled back with it): record it alone.
    if (recordable && (isAppError(error, "STOCK_SHORTAGE") || isAppError(error, "COUPON_LAPSED"))) {
      const marked = await db.transaction().execute(async (trx) => {
        await recordPayment(payment.paymentOrderId, payment.paymentId, trx, { refused: error.message });
        return markFailed(payment.paymentOrderId, error.message, trx);
      });
      // Another placement of the same payment (a second tab, the webhook) placed its order meanwhile.
      const placed = await settleFailed(marked, db);
      if (placed !== null) throw paymentUsedFor(placed);
      throw new AppError(409, failedMessage(error.message), undefined, undefined, error.code);
    }
    if (!recordable && isAppError(error)) await refundPaidTwice(payment.paymentOrderId, payment.paymentId, db);
    if (recordable && isAppError(error) && !(error instanceof OrderExistsError)) {
      await recordPayment(payment.paymentOrderId, payment.paymentId, db, { refused: error.message });
    }
    throw error;
  }
}

/**
 * A payment already verified and recorded, whose order could not be placed then (the cart
 * changed, say): try again with the recorded payment, once the cart matches what was paid.
 */
export async function placeRecordedPayment(paymentOrderId: string, userId: number, db: Db = defaultDb): Promise<Order> {
  const paymentOrder = await getPaymentOrder(paymentOrderId, userId, db);
  if (!paymentOrder || paymentOrder.status !== "paid" || !paymentOrder.paymentId) {
    throw new AppError(404, "That payment was not found");
  }
  if (!paymentOrder.shipping) throw new AppError(400, "Shipping details are required");
  const payment = { paymentOrderId: paymentOrder.id, paymentId: paymentOrder.paymentId, amountPaise: paymentOrder.amountPaise };
  return notify(await placePaidOrder(userId, paymentOrder.shipping, payment, db), db);
}

/** What a post of the payment page asks for. */
export type PaymentAttempt =
  /** 'Place my order', for a payment received before */
  | { intent: "place" }
  /** a gateway's answer with its proof: Razorpay Checkout's handler, or the redirect callback (either gateway) */
  | { intent: "complete"; proof: PaymentProofInput };

/**
 * A post of the payment page or of the gateway's callback: one try against the customer's
 * verify-payment limit, then the order this payment pays for. Answers the order's id.
 */
export async function payForOrder(
  userId: number,
  paymentOrder: PaymentOrder,
  attempt: PaymentAttempt,
  db: Db = defaultDb,
): Promise<number> {
  await rateLimitUser(LIMITS.verifyPayment, userId);
  try {
    return await pay(userId, paymentOrder, attempt, db);
  } catch (error) {
    // A simultaneous post of the same payment (a double click) recorded its payment first:
    // place from that one, which waits for the other post's order and then names it.
    if (!isAppError(error, "ANOTHER_PAYMENT")) throw error;
    return (await placeRecordedPayment(paymentOrder.id, userId, db)).id;
  }
}

/** The order a post pays for: from the payment already recorded, or from the gateway's proof. */
async function pay(userId: number, paymentOrder: PaymentOrder, attempt: PaymentAttempt, db: Db): Promise<number> {
  if (attempt.intent === "complete" && paymentOrder.status !== "created") {
    // A second payment (another tab, another try) of a payment order already paid: refund it.
    const { proof } = attempt;
    const verified = isValidPaymentSignature(proof.razorpay_order_id, proof.razorpay_payment_id, proof.razorpay_signature);
    if (verified && proof.razorpay_order_id === paymentOrder.id && proof.razorpay_payment_id !== paymentOrder.paymentId) {
      await refundPaidTwice(paymentOrder.id, proof.razorpay_payment_id, db);
    }
  }
  if (paymentOrder.status === "failed") throw new AppError(409, failedMessage(paymentOrder.failure));
  // Already paid (a second click, or the cart had changed): place the order from that payment.
  if (paymentOrder.status === "paid") return (await placeRecordedPayment(paymentOrder.id, userId, db)).id;
  if (attempt.intent === "place") throw new AppError(409, "This payment has not been made yet");
  const proof = attempt.proof;
  if (proof.razorpay_order_id !== paymentOrder.id) throw paymentFailed();
  return (await placeOnlineOrder(proof, userId, null, db)).id;
}

// ---- The offline test gateway (docs/decisions/0012) ---------------------------------------

/** The payment order the offline test gateway may pay: the caller's own, unpaid. 404 with Razorpay keys set. */
async function gatewayPaymentOrder(paymentOrderId: string, userId: number, db: Db): Promise<PaymentOrder> {
  const paymentOrder = paymentMode() === "offline" ? await getPaymentOrder(paymentOrderId, userId, db) : null;
  if (!paymentOrder) throw new AppError(404, "That payment order was not found");
  return paymentOrder;
}

export type GatewayOutcome = "paid" | "failed";

/**
 * What the offline test gateway hands over for a payment order of the caller's, exactly as
 * Razorpay's Checkout hands it to its handler; `failed` carries a signature that never verifies.
 * Nothing is written: a payment exists for the shop only once its proof is verified.
 */
function gatewayProof(paymentOrder: PaymentOrder, outcome: GatewayOutcome): PaymentProofInput {
  const paid = offlineGatewayPayment(paymentOrder.id, outcome);
  return { razorpay_order_id: paymentOrder.id, razorpay_payment_id: paid.paymentId, razorpay_signature: paid.signature };
}

/**
 * POST /rzp/test-gateway/{id}/pay: one try against the customer's verify-payment limit, then the
 * gateway's three fields for their unpaid payment order. A payment order paid already, or marked
 * failed, is a 409 (Razorpay takes no second payment for a paid order).
 */
export async function payOnTestGateway(
  paymentOrderId: string,
  userId: number,
  outcome: GatewayOutcome,
  db: Db = defaultDb,
): Promise<PaymentProofInput> {
  const paymentOrder = await gatewayPaymentOrder(paymentOrderId, userId, db);
  await rateLimitUser(LIMITS.verifyPayment, userId);
  if (paymentOrder.orderId || paymentOrder.status !== "created") {
    throw new AppError(409, "This payment order has already been paid");
  }
  return gatewayProof(paymentOrder, outcome);
}

/** Razorpay's failure fields of the redirect flow, for a payment order and a payment id. */
export function gatewayFailureFields(paymentOrderId: string, paymentId: string): Record<string, string> {
  return {
    "error[code]": "BAD_REQUEST_ERROR",
    "error[description]": "Payment failed",
    "error[source]": "customer",
    "error[step]": "payment_authorization",
    "error[reason]": "payment_failed",
    "error[metadata][order_id]": paymentOrderId,
    "error[metadata][payment_id]": paymentId,
  };
}

/**
 * The test gateway's page for a payment order of the customer's: its amount and the two forms it
 * posts to the shop's callback (a paid payment's three fields, or Razorpay's failure fields).
 * `null` when it is paid already or failed (the payment page says what happened).
 */
export async function testGatewayPage(paymentOrderId: string, userId: number, db: Db = defaultDb) {
  const paymentOrder = await gatewayPaymentOrder(paymentOrderId, userId, db);
  if (paymentOrder.orderId || paymentOrder.status !== "created") return null;
  const proof = gatewayProof(paymentOrder, "paid");
  return {
    id: paymentOrder.id,
    amountPaise: paymentOrder.amountPaise,
    paid: proof,
    failed: gatewayFailureFields(paymentOrder.id, offlineGatewayPayment(paymentOrder.id, "failed").paymentId),
  };
}

// ---- The gateway's redirect callback ----------------------------------------------------

/** Where the callback sends the browser: the new order, or the payment page with what went wrong. */
export type CallbackResult =
  | { orderId: number }
  /** `failed`: nothing was recorded (no payment, or one that did not verify); `refused`: paid, but no order yet */
  | { paymentOrderId: string | null; outcome: "failed" | "refused" | "busy" };

const GatewayIdSchema = z.string().regex(/^order_[A-Za-z0-9]{6,40}$/);

/**
 * POST /rzp/payment-callback, Razorpay's redirect flow (and the test gateway's): with a valid
 * signature the payment order's own customer gets the order its checkout stored (the customer is
 * the payment order's, never the poster's: the same power as the webhook's), otherwise nothing is
 * written. Razorpay's failure fields carry no signature: they name the payment order whose page
 * tells the customer, and they end its stock hold only when its own customer posts them (`reporterId`,
 * the signed-in poster: the test gateway's page is the shop's own, so its post carries the session;
 * Razorpay's cross-site post carries none, and its signed payment.failed webhook ends the hold).
 */
export async function paymentCallback(
  fields: Record<string, unknown>,
  reporterId: number | null = null,
  db: Db = defaultDb,
): Promise<CallbackResult> {
  const failedId = GatewayIdSchema.safeParse(fields["error[metadata][order_id]"]);
  if (!("razorpay_signature" in fields)) {
    if (failedId.success && reporterId !== null) await releaseUnpaid(failedId.data, db, reporterId);
    return { paymentOrderId: failedId.success ? failedId.data : null, outcome: "failed" };
  }
  const proof = parseWith(PaymentProofSchema, fields);
  const named = GatewayIdSchema.safeParse(proof.razorpay_order_id);
  const paymentOrderId = named.success ? named.data : null;
  if (!isValidPaymentSignature(proof.razorpay_order_id, proof.razorpay_payment_id, proof.razorpay_signature)) {
    return { paymentOrderId, outcome: "failed" };
  }
  const owner = await db.selectFrom("paymentOrders").select("userId").where("id", "=", proof.razorpay_order_id).executeTakeFirst();
  const paymentOrder = owner?.userId != null ? await getPaymentOrder(proof.razorpay_order_id, owner.userId, db) : null;
  if (!owner?.userId || !paymentOrder) return { paymentOrderId: null, outcome: "failed" };
  try {
    return { orderId: await payForOrder(owner.userId, paymentOrder, { intent: "complete", proof }, db) };
  } catch (error) {
    if (error instanceof OrderExistsError) return { orderId: error.orderId };
    if (!isAppError(error)) throw error;
    if (error.status === 429 || error.status === 503) return { paymentOrderId, outcome: "busy" };
    return { paymentOrderId, outcome: isAppError(error, "PAYMENT_FAILED") ? "failed" : "refused" };
  }
}

interface WebhookPayment {
  id?: unknown;
  order_id?: unknown;
  amount?: unknown;
  currency?: unknown;
  status?: unknown;
}

/**
 * Razorpay's webhook (payment.captured, order.paid): with a valid X-Razorpay-Signature over the
 * raw body, the payment is recorded, and when the checkout page left its shipping details and
 * no order exists yet (the customer closed the tab after paying), the order is placed. What
 * cannot be ordered any more is marked failed with the reason, for a refund. payment.failed ends
 * the payment order's stock hold while it is unpaid.
 */
export async function handleWebhook(
  rawBody: string,
  signature: string | null,
  db: Db = defaultDb,
): Promise<{ received: true; orderId?: number }> {
  if (!signature || !isValidWebhookSignature(rawBody, signature)) throw new AppError(400, "Invalid webhook signature");
  let event: { event?: unknown; payload?: { payment?: { entity?: WebhookPayment }; refund?: { entity?: Record<string, unknown> } } };
  try {
    event = JSON.parse(rawBody) as typeof event;
  } catch {
    throw new AppError(400, "The webhook body is not JSON");
  }
  // JSON, but not an event (null, a number, an array): nothing to act on, and `null.event` would be a 500.
  if (typeof event !== "object" || event === null || Array.isArray(event)) throw new AppError(400, "The webhook body is not a JSON object");
  if (typeof event.event === "string" && event.event.startsWith("refund.")) return handleRefundWebhook(event, db);
  if (event.event === "payment.failed") {
    // A failed try: what the payment order held is free again (a later payment is a late one).
    const failed = event.payload?.payment?.entity;
    if (typeof failed?.order_id === "string") await releaseUnpaid(failed.order_id, db);
    return { received: true };
  }
  if (event.event !== "payment.captured" && event.event !== "order.paid") return { received: true };
  const payment = event.payload?.payment?.entity;
  if (!payment || typeof payment.id !== "string" || typeof payment.order_id !== "string" || typeof payment.amount !== "number") {
    throw new AppError(400, "The webhook has no payment");
  }
  const row = await db
    .selectFrom("paymentOrders")
    .select(["id", "userId", "amountPaise"])
    .where("id", "=", payment.order_id)
    .executeTakeFirst();
  if (!row || row.userId === null) return { received: true };
  if (payment.amount !== row.amountPaise || (payment.currency !== undefined && payment.currency !== "INR")) {
    const reason =
      payment.amount !== row.amountPaise
        ? `Paid ${payment.amount} paise, expected ${row.amountPaise}`
        : `Paid in ${String(payment.currency).slice(0, 3)}, expected INR`;
    await settleFailed(await markFailed(row.id, reason, db), db);
    return { received: true };
  }
  const paymentOrder = (await getPaymentOrder(row.id, row.userId, db))!;
  if (paymentOrder.orderId) {
    if (paymentOrder.paymentId !== payment.id) await refundPaidTwice(row.id, payment.id, db);
    return { received: true, orderId: paymentOrder.orderId };
  }
  try {
    await recordPayment(row.id, payment.id, db);
  } catch (error) {
    if (isAppError(error)) return { received: true };
    throw error;
  }
  if (!paymentOrder.shipping) return { received: true };
  try {
    const id = await placeOrder(
      {
        userId: row.userId,
        shipping: paymentOrder.shipping,
        paymentMethod: "online",
        payment: { paymentOrderId: row.id, paymentId: payment.id, amountPaise: row.amountPaise },
        actor: "system",
      },
      db,
    );
    await notify(id, db);
    return { received: true, orderId: id };
  } catch (error) {
    if (error instanceof OrderExistsError) return { received: true, orderId: error.orderId };
    if (!isAppError(error)) throw error;
    const placed = await settleFailed(await markFailed(row.id, error.message, db), db);
    return placed === null ? { received: true } : { received: true, orderId: placed };
  }
}

/** End a payment order's stock hold while nothing is paid for it (its payment failed). */
async function releaseUnpaid(paymentOrderId: string, db: Db, userId?: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    // Under its lock: a payment recorded meanwhile keeps what it holds.
    const row = await lockPaymentOrder(trx, paymentOrderId);
    if (row?.status === "created") await releaseForPayment(trx, paymentOrderId, userId);
  });
}

/** What marking a payment order failed did: its refund queued (null: none owed or none recorded), or nothing, as it became an order. */
type Marked = { refundId: number | null } | { orderId: number };

/**
 * A paid payment that could not become an order, for the shop to refund; never one that did become
 * an order. Decided under the payment order's locked row, from its own `order_id`: an order placed
 * meanwhile wins, and this marks nothing (answers that order). What it held is free again, and its
 * refund (of the whole payment, key `unplaced:{id}`) is queued in the same transaction: answers its
 * id, for the caller to send once committed (null when no payment is recorded to refund: the staff's
 * queue shows it). `refused`: only a paid payment order whose order was refused (the staff's 'Refund
 * now' and the sweep after REFUSED_PAYMENT_HOURS).
 */
async function markFailed(
  id: string,
  reason: string,
  db: Db,
  options: { refused?: boolean; actor?: "admin" | "system" } = {},
): Promise<Marked> {
  return inTransaction(db, async (trx) => {
    const row = await lockPaymentOrder(trx, id);
    if (!row) return { refundId: null };
    if (row.orderId !== null) return { orderId: row.orderId };
    if (options.refused && !(row.status === "paid" && row.failure !== null)) return { refundId: null };
    if (row.status !== "failed") {
      await trx
        .updateTable("paymentOrders")
        .set({ status: "failed", failure: reason.slice(0, 500), updatedAt: nowIso() })
        .where("id", "=", id)
        .execute();
      await releaseForPayment(trx, id);
    }
    if (!row.paymentId || row.amountPaise < 100) return { refundId: null };
    const refund = await queueRefund(trx, {
      paymentOrderId: id,
      orderId: null,
      amount: Math.floor(row.amountPaise / 100),
      reason: "unplaced",
      key: `unplaced:${id}`,
      actor: options.actor ?? "system",
    });
    return { refundId: refund.id };
  });
}

/** Send a failed payment order's refund once committed; the order id when an order had won the race instead. */
async function settleFailed(marked: Marked, db: Db): Promise<number | null> {
  if ("orderId" in marked) return marked.orderId;
  await sendRefundQuietly(marked.refundId, db);
  return null;
}

/** How long a paid payment whose order was refused waits for its customer to place it before it is refunded. */
export const REFUSED_PAYMENT_HOURS = 24;

/**
 * Refund a paid payment whose order was refused (the cart changed) and never placed: the staff's
 * 'Refund now' in the queue, and the sweep once it is REFUSED_PAYMENT_HOURS old. It becomes
 * `failed` (the customer can no longer place it) and its refund is queued, in one transaction,
 * then sent. A failed payment order without a refund (one from before refunds existed) gets its
 * refund queued the same way. 409 when it has become an order or has nothing to refund.
 */
export async function refundUnplacedPayment(paymentOrderId: string, actor: "admin" | "system", db: Db = defaultDb): Promise<number> {
  const refundId = await inTransaction(db, async (trx) => {
    const row = await lockPaymentOrder(trx, paymentOrderId);
    if (!row) throw new AppError(404, "That payment order was not found");
    if (row.orderId !== null) throw new AppError(409, "This payment has become an order, or has nothing to refund");
    if (row.status === "paid") {
      const marked = await markFailed(paymentOrderId, "Not placed by the customer: refunded", trx, { refused: true, actor });
      if (!("refundId" in marked) || marked.refundId === null) {
        throw new AppError(409, "This payment has become an order, or has nothing to refund");
      }
      return marked.refundId;
    }
    if (row.status !== "failed" || !row.paymentId) throw new AppError(409, "This payment has nothing to refund");
    const refund = await queueRefund(trx, {
      paymentOrderId,
      orderId: null,
      amount: Math.floor(row.amountPaise / 100),
      reason: "unplaced",
      key: `unplaced:${paymentOrderId}`,
      actor,
    });
    if (!refund.created) throw new AppError(409, `This payment has a refund already (#${refund.id})`);
    return refund.id;
  });
  await sendRefundQuietly(refundId, db);
  return refundId;
}

/**
 * "Paid twice": a verified payment of a payment order that another payment paid (or that failed
 * with another payment) can become nothing, so it is refunded whole, key `twice:{paymentId}`, on
 * the payment order's order when it has one. Decided on the locked row; once per payment.
 */
async function refundPaidTwice(paymentOrderId: string, paymentId: string, db: Db): Promise<void> {
  const refundId = await inTransaction(db, async (trx) => {
    const row = await lockPaymentOrder(trx, paymentOrderId);
    if (!row?.paymentId || row.paymentId === paymentId || row.status === "created" || row.amountPaise < 100) return null;
    const refund = await queueRefund(trx, {
      paymentOrderId,
      paymentId,
      orderId: row.orderId,
      amount: Math.floor(row.amountPaise / 100),
      reason: "unplaced",
      key: `twice:${paymentId}`,
      actor: "system",
    });
    return refund.id;
  });
  await sendRefundQuietly(refundId, db);
}

export { failedMessage };
