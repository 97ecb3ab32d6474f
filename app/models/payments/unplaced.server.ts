// Payments that never became an order: a failed try's stock hold ended, a paid payment order marked
// failed with its refund queued (decided under the payment order's locked row, so an order placed
// meanwhile wins), the refund of a refused payment its customer never placed, and the refund of a
// second payment of a payment order ("paid twice").
import type { Db } from "~/lib/db.server";
import { db as defaultDb, nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { releaseForPayment } from "~/models/reservations.server";
import type { RefundBy } from "~/models/refunds/queue.server";
import { inTransaction, queueRefund, refundBy } from "~/models/refunds/queue.server";
import type { Actor } from "~/models/staff/staff.server";
import { sendRefundQuietly } from "~/models/refunds/send.server";
import { lockPaymentOrder } from "./payment-orders.server";

/** End a payment order's stock hold while nothing is paid for it (its payment failed). */
export async function releaseUnpaid(paymentOrderId: string, db: Db, userId?: number): Promise<void> {
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
export async function markFailed(id: string, reason: string, db: Db, options: { refused?: boolean; by?: RefundBy } = {}): Promise<Marked> {
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
      ...(options.by ?? { actor: "system" }),
    });
    return { refundId: refund.id };
  });
}

/** Send a failed payment order's refund once committed; the order id when an order had won the race instead. */
export async function settleFailed(marked: Marked, db: Db): Promise<number | null> {
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
export async function refundUnplacedPayment(paymentOrderId: string, actor: Actor, db: Db = defaultDb): Promise<number> {
  const refundId = await inTransaction(db, async (trx) => {
    const row = await lockPaymentOrder(trx, paymentOrderId);
    if (!row) throw new AppError(404, "That payment order was not found");
    if (row.orderId !== null) throw new AppError(409, "This payment has become an order, or has nothing to refund");
    if (row.status === "paid") {
      const marked = await markFailed(paymentOrderId, "Not placed by the customer: refunded", trx, { refused: true, by: refundBy(actor) });
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
      ...refundBy(actor),
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
export async function refundPaidTwice(paymentOrderId: string, paymentId: string, db: Db): Promise<void> {
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
