// Verifying a payment: its signature (one code path for Razorpay and the offline gateway), its
// capture by the gateway, and its record on the payment order, decided under the payment order's
// locked row. POST /rzp/verify-payment calls confirmPayment.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, isUniqueViolation, nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { countPaymentFailed } from "~/lib/metrics.server";
import { capturePayment, isValidPaymentSignature } from "~/lib/payments.server";
import { LIMITS, rateLimitUser } from "~/lib/rate-limit.server";
import { keepCouponHoldForPayment } from "~/models/coupons/uses.server";
import { inTransaction } from "~/models/refunds/queue.server";
import type { LockedPaymentOrder, PaymentOrder } from "./payment-orders.server";
import { failedMessage, getPaymentOrder, lockPaymentOrder } from "./payment-orders.server";
import { refundPaidTwice } from "./unplaced.server";
import { log } from "~/lib/log.server";

export const PAYMENT_FAILED = "Payment verification failed";
export const ANOTHER_PAYMENT = "This payment order has already been paid with another payment";
export const NOT_CAPTURED =
  "The payment gateway has not taken this payment, so nothing was ordered. If money left your account, the bank returns it on its own.";
export const PAYMENT_UNCONFIRMED = "The payment gateway could not confirm your payment just now. Please try again in a minute.";

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
export async function recordPayment(paymentOrderId: string, paymentId: string, db: Db, news: PaymentNews = VERIFIED): Promise<void> {
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
  if (verdict.status === "failed") throw new AppError(409, failedMessage(verdict.failure), { code: "PAYMENT_ORDER_FAILED" });
  throw new AppError(409, ANOTHER_PAYMENT, { code: "ANOTHER_PAYMENT" });
}

/**
 * Check the signature of a payment (one code path for Razorpay and the offline gateway, a
 * timing-safe comparison) and that the payment order is the customer's. Nothing is written.
 */
export async function checkedPaymentOrder(proof: PaymentProofInput, userId: number, db: Db): Promise<PaymentOrder> {
  if (!isValidPaymentSignature(proof.razorpay_order_id, proof.razorpay_payment_id, proof.razorpay_signature)) {
    countPaymentFailed("signature");
    throw paymentFailed();
  }
  const paymentOrder = await getPaymentOrder(proof.razorpay_order_id, userId, db);
  if (!paymentOrder) throw new AppError(404, "That payment order was not found");
  // The payment recorded already was captured when it was recorded; any other is read from the gateway now.
  if (paymentOrder.paymentId !== proof.razorpay_payment_id) {
    const payment = { paymentId: proof.razorpay_payment_id, orderId: paymentOrder.id, amountPaise: paymentOrder.amountPaise };
    const answer = await capturePayment(payment);
    if (answer.outcome === "unavailable") {
      log.warn(`payment ${payment.paymentId} of ${payment.orderId} could not be confirmed: ${answer.reason}`);
      throw new AppError(503, PAYMENT_UNCONFIRMED);
    }
    if (answer.outcome === "refused") {
      countPaymentFailed("not_captured");
      log.warn(`payment ${payment.paymentId} of ${payment.orderId} refused: ${answer.reason}`);
      throw new AppError(409, NOT_CAPTURED, { code: "NOT_CAPTURED" });
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

export const paymentFailed = () => new AppError(400, PAYMENT_FAILED, { code: "PAYMENT_FAILED" });

/**
 * POST /rzp/verify-payment: one try against the customer's verify-payment limit, then the
 * payment's check and record (verifyPayment). A bad signature is a PAYMENT_FAILED error.
 */
export async function confirmPayment(proof: PaymentProofInput, userId: number, db: Db = defaultDb): Promise<PaymentOrder> {
  await rateLimitUser(LIMITS.verifyPayment, userId);
  return verifyPayment(proof, userId, db);
}
