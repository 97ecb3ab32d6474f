// Razorpay's webhook (POST /rzp/webhook): payments captured or failed, and the refund.* events
// (refunds/webhook.server).
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import { AppError, isAppError, OrderExistsError } from "~/lib/errors.server";
import { countPaymentFailed } from "~/lib/metrics.server";
import { isValidWebhookSignature } from "~/lib/payments.server";
import { placeOrder } from "~/models/orders/place.server";
import { placedOrder } from "~/models/orders/read.server";
import { handleRefundWebhook } from "~/models/refunds/webhook.server";
import { getPaymentOrder } from "./payment-orders.server";
import { markFailed, refundPaidTwice, releaseUnpaid, settleFailed } from "./unplaced.server";
import { recordPayment } from "./verify.server";

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
    countPaymentFailed("gateway");
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
    await placedOrder(id, db);
    return { received: true, orderId: id };
  } catch (error) {
    if (error instanceof OrderExistsError) return { received: true, orderId: error.orderId };
    if (!isAppError(error)) throw error;
    const placed = await settleFailed(await markFailed(row.id, error.message, db), db);
    return placed === null ? { received: true } : { received: true, orderId: placed };
  }
}
