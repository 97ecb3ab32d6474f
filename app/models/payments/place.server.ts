// An online order: placed for a verified payment of exactly its total, with the record of that
// payment in the same transaction; and the payment page's posts (pay for this order, or place it
// from a payment received before).
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import { AppError, isAppError, OrderExistsError } from "~/lib/errors.server";
import { isValidPaymentSignature } from "~/lib/payments.server";
import { LIMITS, rateLimitUser } from "~/lib/rate-limit.server";
import type { ShippingAddress } from "~/utils/checkout";
import type { PaymentForOrder } from "~/models/orders/place.server";
import { placeOrder } from "~/models/orders/place.server";
import type { Order } from "~/models/orders/read.server";
import { placedOrder } from "~/models/orders/read.server";
import type { PaymentOrder } from "./payment-orders.server";
import { failedMessage, getPaymentOrder, paymentUsedFor } from "./payment-orders.server";
import { markFailed, refundPaidTwice, settleFailed } from "./unplaced.server";
import type { PaymentProofInput } from "./verify.server";
import { checkedPaymentOrder, paymentFailed, recordPayment } from "./verify.server";

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
  return placedOrder(await placePaidOrder(userId, address, payment, db), db);
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
      throw new AppError(409, failedMessage(error.message), { code: error.code });
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
  return placedOrder(await placePaidOrder(userId, paymentOrder.shipping, payment, db), db);
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
